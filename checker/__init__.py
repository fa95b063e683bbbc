"""ruling: a rules checker for the tabletop wargame Infinity (N5 and N3).

The pipeline runs one way, one module a stage::

    text -> notation.parse -> resolve.resolve -> facts.build -> solver.solve
         -> report.* -> render.* (text or JSON) -> cli
"""

__version__ = "0.1.0"
