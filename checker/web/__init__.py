"""``ruling serve``: a local web page and a JSON API that judge a position, for both games.

The page (``templates/``, ``static/``: plain HTML, CSS and one JavaScript file, no build
step) sends the position to the API and shows its answer; the API answers what the
commands print with ``--format json``. Only this package knows Starlette, uvicorn and
Jinja2 (the ``web`` extra).

Modules: :mod:`.app` (the routes), :mod:`.judging` (the calls into the games),
:mod:`.examples` (the bundled positions), :mod:`.guard` (headers and limits).
"""
