"""Benchmark ``ruling serve``: warm requests over HTTP to the server on 127.0.0.1.

Usage::

    python benchmarks/web.py                      # N = 5, 15, 50 a side; 15 requests each
    python benchmarks/web.py --sizes 15 --runs 30

The server runs in this process (uvicorn in a thread, the rule bases loaded at start-up
by judging the bundled examples). For each N and command (``aros``, ``declarations``,
``check``, ``odds``) it sends the position of ``bench.py`` (N troopers a side) twice
untimed, then ``--runs`` times, each request a different position (the generator's seed
varies, so nothing a request computed serves the next), over one kept-alive connection,
and prints the median and fastest wall time of a request and answer, the answer's size,
and the median time of the same call made in the process without HTTP (the server's own
share is the difference). Nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import position

COMMANDS = ("aros", "declarations", "check", "odds")


def serve() -> tuple[object, int]:
    """The server, started and warm, and its port."""
    import uvicorn

    from checker.web.app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, server.servers[0].sockets[0].getsockname()[1]


def request(connection: http.client.HTTPConnection, command: str, text: str) -> tuple[float, int]:
    body = json.dumps({"position": text})
    start = time.perf_counter()
    connection.request("POST", f"/api/{command}", body=body, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    data = answer.read()
    elapsed = time.perf_counter() - start
    if answer.status != 200:
        raise SystemExit(f"{command}: status {answer.status}: {data[:300]!r}")
    return elapsed, len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 15, 50])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    from checker.web import judging

    started = time.perf_counter()
    server, port = serve()
    print(f"server warm after {time.perf_counter() - started:.1f} s on port {port}")
    connection = http.client.HTTPConnection("127.0.0.1", port)
    print("| N a side | command | request median ms | fastest ms | answer KiB | in process, no HTTP, median ms |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        for command in COMMANDS:
            for seed in (1, 2):
                request(connection, command, position(n, seed))
            timed = [request(connection, command, position(n, 10 + k)) for k in range(args.runs)]
            inside = []
            for k in range(args.runs):
                text = position(n, 10 + k)
                start = time.perf_counter()
                judging.judge(command, text)
                inside.append(time.perf_counter() - start)
            walls = [t for t, _ in timed]
            print(f"| {n} | {command} | {statistics.median(walls) * 1000:.1f} | {min(walls) * 1000:.1f} "
                  f"| {statistics.median(s for _, s in timed) / 1024:.0f} | {statistics.median(inside) * 1000:.1f} |")
    connection.close()
    server.should_exit = True  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
