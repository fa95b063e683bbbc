"""The web server's routes: the page, the rule and catalogue pages its links open, and
the JSON API (docs/web.md).

``POST /api/aros``, ``/api/declarations``, ``/api/check`` and ``/api/odds`` take
``{"position": TEXT}`` and answer what ``ruling COMMAND --format json`` prints (status
200, the header ``Ruling-Failed: 1`` where the command exits 1); bad input is the
command's JSON error ``{"error": {...}}`` with status 400 (413 for a body over the size
limit). No request names a file: a position comes in the body, an example by its name.

Defines: :func:`create_app`.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from .. import __version__, games
from ..engine.errors import RulingError
from ..engine.text import decode
from . import judging
from .examples import bundled
from .guard import Headers, TooLarge, read_body

_HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(_HERE / "templates"))


class RequestError(RulingError):
    """A request the API cannot read: not JSON, or without a position."""

    kind = "request"


def _error(exc: RulingError, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": exc.to_dict()}, status_code=status)


async def _position(request: Request) -> str:
    """The position text of a request ``{"position": TEXT}``, its line ends made newlines."""
    try:
        data = json.loads(await read_body(request))
    except (ValueError, UnicodeDecodeError):
        raise RequestError('the body is not JSON: send {"position": "<the position text>"}') from None
    if not isinstance(data, dict) or not isinstance(data.get("position"), str):
        raise RequestError('the body names no position: send {"position": "<the position text>"}')
    try:
        return decode(data["position"].encode("utf-8"), judging.FILE)
    except UnicodeEncodeError:
        raise RequestError("the position holds characters that are not Unicode text") from None


async def judge(request: Request) -> Response:
    command = request.path_params["command"]
    if command not in judging.COMMANDS:
        raise HTTPException(404, f"no command {command!r}: the commands are {', '.join(judging.COMMANDS)}")
    text = await _position(request)
    output = await run_in_threadpool(judging.judge, command, text)
    return Response(output.body, media_type="application/json",
                    headers={"Ruling-Failed": "1" if output.failed else "0"})


async def picture(request: Request) -> Response:
    text = await _position(request)
    return JSONResponse({"svg": await run_in_threadpool(judging.picture, text)})


async def examples(request: Request) -> Response:
    return JSONResponse({"examples": [e.to_dict() for e in bundled()]})


async def rules_api(request: Request) -> Response:
    found = await run_in_threadpool(judging.rules, request.path_params["rule_id"],
                                    request.query_params.get("edition"))
    return JSONResponse(found)


async def catalogue_api(request: Request) -> Response:
    params = request.path_params
    found = await run_in_threadpool(judging.catalogue, params["edition"], params.get("kind"), params.get("name"))
    return JSONResponse(found)


async def page(request: Request) -> Response:
    return templates.TemplateResponse(request, "index.html", {
        "examples": [e.to_dict() for e in bundled()], "commands": judging.COMMANDS,
        "games": [g.title for g in games.GAMES], "version": __version__})


async def rule_page(request: Request) -> Response:
    rule_id, edition = request.path_params["rule_id"], request.query_params.get("edition")
    try:
        found = await run_in_threadpool(judging.rules, rule_id, edition)
    except RulingError as exc:
        return _page_error(request, f"Rule {rule_id}", exc)
    return templates.TemplateResponse(request, "rule.html",
                                      {"rule_id": rule_id, "edition": edition, "rules": found["rules"]})


async def catalogue_page(request: Request) -> Response:
    """An entry of a catalogue; a name that is not of the kind the link says is looked up
    under every kind of the catalogue (a skill the page links may be a special skill)."""
    edition, kind, name = (request.path_params[k] for k in ("edition", "kind", "name"))
    try:
        found = await run_in_threadpool(judging.catalogue, edition, kind, name)
    except RulingError as exc:
        found = None
        try:
            kinds = (await run_in_threadpool(judging.catalogue, edition))["kinds"]
        except RulingError:
            kinds = []
        for other in (k["kind"] for k in kinds if k["kind"] != kind):
            try:
                found = await run_in_threadpool(judging.catalogue, edition, other, name)
                break
            except RulingError:
                continue
        if found is None:
            return _page_error(request, f"{name}", exc)
    return templates.TemplateResponse(request, "catalogue.html", {"found": found})


def _page_error(request: Request, title: str, exc: RulingError) -> Response:
    return templates.TemplateResponse(request, "missing.html", {"title": title, "message": str(exc)},
                                      status_code=404)


async def _ruling_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RulingError)
    return _error(exc, 413 if isinstance(exc, TooLarge) else 400)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": {"kind": "request", "message": exc.detail}}, status_code=exc.status_code)
    return templates.TemplateResponse(request, "missing.html", {"title": "Not found", "message": exc.detail},
                                      status_code=exc.status_code)


def create_app(hosts: tuple[str, ...] = ("127.0.0.1", "localhost"), warm: bool = True) -> Starlette:
    """The ASGI application.

    Parameters
    ----------
    hosts
        The host names a request may be addressed to (``*``: any), which keeps pages
        of other sites from reaching the server through a name they resolve to 127.0.0.1.
    warm
        Judge the bundled examples once at start-up, so the first request finds the rule
        bases loaded.
    """

    @asynccontextmanager
    async def lifespan(app: Starlette):
        if warm:
            await run_in_threadpool(judging.warm)
        yield

    routes = [
        Route("/", page),
        Route("/rules/{rule_id}", rule_page),
        Route("/catalogue/{edition}/{kind}/{name}", catalogue_page),
        Route("/api/examples", examples),
        Route("/api/picture", picture, methods=["POST"]),
        Route("/api/rules/{rule_id}", rules_api),
        Route("/api/catalogue/{edition}", catalogue_api),
        Route("/api/catalogue/{edition}/{kind}", catalogue_api),
        Route("/api/catalogue/{edition}/{kind}/{name}", catalogue_api),
        Route("/api/{command}", judge, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static"),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(Headers), Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))],
        exception_handlers={RulingError: _ruling_error, HTTPException: _http_error},
        lifespan=lifespan,
    )
