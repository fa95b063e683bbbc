"""Urban War, a second game on ruling's engine: its notation, facts, verdicts and cases.

Inputs: a position text whose first statement is ``game urban-war``.
Defines: the game's name, the name of its rule base entry file and of its catalogue.
"""

GAME = "urban-war"
# The rule base entry file, asp/urban_war.lp (see that file for why it is not urban-war.lp).
ENTRY = "urban_war"
# The catalogue folder, checker/catalogue/urban-war/.
CATALOGUE = "urban-war"

