"""Running the web server: uvicorn on the application of :mod:`.app`, telling the
address it listens on once the rule bases are loaded.

Defines: :func:`run`, :func:`allowed_hosts`.
"""

from __future__ import annotations

from collections.abc import Callable

import uvicorn

from .app import create_app


def allowed_hosts(host: str) -> tuple[str, ...]:
    """The host names a request may be addressed to when listening on ``host``: the
    loopback names and ``host`` itself; any name when listening on every address."""
    if host in ("0.0.0.0", "::"):
        return ("*",)
    return tuple(dict.fromkeys(("127.0.0.1", "localhost", host)))


def run(host: str, port: int, told: Callable[[str], None]) -> None:
    """Serve until interrupted; ``told`` gets the page's address once it answers."""
    config = uvicorn.Config(create_app(allowed_hosts(host)), host=host, port=port, log_level="warning",
                            server_header=False, limit_concurrency=64)
    server = uvicorn.Server(config)
    started = server.startup

    async def startup(sockets=None) -> None:
        await started(sockets=sockets)
        if server.started:
            bound = server.servers[0].sockets[0].getsockname()
            shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
            told(f"http://{shown}:{bound[1]}/")

    server.startup = startup  # type: ignore[method-assign]
    server.run()
