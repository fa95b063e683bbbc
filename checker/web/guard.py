"""What keeps the server safe by default: the headers on every answer (a
Content-Security-Policy allowing only the server's own scripts and styles), a failure of
the server answered without its stack, and the size limit on a request's body.

Defines: :data:`MAX_BODY_BYTES`, :data:`HEADERS`, :class:`Headers`, :func:`read_body`.
"""

from __future__ import annotations

import json
import logging

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..engine.errors import RulingError

_log = logging.getLogger("ruling.web")

# A position of 200 troopers a side is about 20,000 bytes.
MAX_BODY_BYTES = 200_000

HEADERS = (
    (b"content-security-policy",
     (b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
      b"base-uri 'none'; form-action 'none'; frame-ancestors 'none'")),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)


class Headers:
    """ASGI middleware adding :data:`HEADERS` to every HTTP answer, and answering a
    failure of the server itself with a JSON error of status 500 that names the
    exception's type alone (its stack goes to the server's log, never to the client)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except Exception as exc:
            _log.exception("a request failed inside the server")
            if started:
                raise
            body = json.dumps({"error": {"kind": "internal", "message": f"internal error ({type(exc).__name__}): "
                                         "the server's log has the details"}}).encode()
            await with_headers({"type": "http.response.start", "status": 500,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})


class TooLarge(RulingError):
    """A request body over :data:`MAX_BODY_BYTES`."""

    kind = "request"


async def read_body(request: Request) -> bytes:
    """The request's body, read no further than :data:`MAX_BODY_BYTES`.

    Raises
    ------
    TooLarge
        For a longer body (told by its Content-Length or as it arrives).
    """
    too_large = TooLarge(f"the request is over {MAX_BODY_BYTES} bytes: a position that large is not judged here")
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY_BYTES:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise too_large
    return bytes(body)
