"""Benchmark ``ruling serve``: warm requests over HTTP to the server on 127.0.0.1.

Usage::

    python benchmarks/web.py                      # N = 5, 15, 50 a side; 15 requests each
    python benchmarks/web.py --sizes 15 --runs 30
    python benchmarks/web.py --sizes 15 --runs 21 --against /tmp/before   # against another commit's tree

The server is ``ruling serve --port 0`` in a process of its own (the rule bases loaded at
start-up by judging the bundled examples), as a browser or a program finds it. For each N and command (``aros``, ``declarations``,
``check``, ``odds``) it sends the position of ``bench.py`` (N troopers a side) twice
untimed, then ``--runs`` times, each request a different position (the generator's seed
varies, so nothing a request computed serves the next), over one kept-alive connection,
and prints the median and fastest wall time of a request and answer, the answer's size,
and the median time of the same call made in this process without HTTP (after judging
each once; the server's own share is the difference). With ``--against TREE`` (a worktree
of another commit: ``git worktree add TREE COMMIT``), a second server runs TREE's code
(with a cache folder of its own) and each position is sent to both in turn: the medians
of both and their ratio, measured in the same run. Nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import position

COMMANDS = ("aros", "declarations", "check", "odds")


def serve(tree: Path | None = None, cache: str | None = None) -> tuple[subprocess.Popen, int]:
    """``ruling serve --port 0`` in a process of its own, warm, and its port: this
    repository's, or ``tree``'s with the cache folder ``cache``."""
    env = None if tree is None else {**os.environ, "PYTHONPATH": str(tree), "XDG_CACHE_HOME": str(cache)}
    server = subprocess.Popen([sys.executable, "-m", "checker", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              text=True, cwd=tree or Path(__file__).resolve().parent.parent, env=env)
    assert server.stdout is not None
    line = server.stdout.readline()  # "ruling: judging positions at http://127.0.0.1:PORT/ ..."
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not found:
        server.terminate()
        raise SystemExit(f"ruling serve printed {line!r}")
    return server, int(found.group(1))


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
    parser.add_argument("--against", metavar="TREE", help="a second server on TREE's code, sent each position in turn")
    args = parser.parse_args()
    if args.against:
        against(Path(args.against).resolve(), args.sizes, args.runs)
        return
    from checker.web import judging

    started = time.perf_counter()
    server, port = serve()
    try:
        print(f"server warm after {time.perf_counter() - started:.1f} s on port {port}")
        print("| N a side | command | request median ms | fastest ms | answer KiB | in process, no HTTP, median ms |")
        print("|---|---|---|---|---|---|")
        for n in args.sizes:
            for command in COMMANDS:
                # a connection of its own: the server closes one left idle for 5 s
                connection = http.client.HTTPConnection("127.0.0.1", port)
                for seed in (1, 2):
                    request(connection, command, position(n, seed))
                timed = [request(connection, command, position(n, 10 + k)) for k in range(args.runs)]
                connection.close()
                judging.judge(command, position(n, 1))
                inside = []
                for k in range(args.runs):
                    text = position(n, 10 + k)
                    start = time.perf_counter()
                    judging.judge(command, text)
                    inside.append(time.perf_counter() - start)
                walls = [t for t, _ in timed]
                print(f"| {n} | {command} | {statistics.median(walls) * 1000:.1f} | {min(walls) * 1000:.1f} "
                      f"| {statistics.median(s for _, s in timed) / 1024:.0f} "
                      f"| {statistics.median(inside) * 1000:.1f} |", flush=True)
    finally:
        server.terminate()
        server.wait(10)


def against(tree: Path, sizes: list[int], runs: int) -> None:
    """Each position sent to this repository's server and to ``tree``'s in turn."""
    with tempfile.TemporaryDirectory() as cache:
        servers = {"this": serve(), "other": serve(tree, cache)}
        try:
            print(f"| N a side | command | {tree} median ms | this tree median ms | this ÷ {tree} |")
            print("|---|---|---|---|---|")
            for n in sizes:
                for command in COMMANDS:
                    connections = {name: http.client.HTTPConnection("127.0.0.1", port)
                                   for name, (_, port) in servers.items()}
                    for seed in (1, 2):
                        for connection in connections.values():
                            request(connection, command, position(n, seed))
                    walls: dict[str, list[float]] = {name: [] for name in servers}
                    for k in range(runs):
                        for name, connection in connections.items():
                            walls[name].append(request(connection, command, position(n, 10 + k))[0])
                    for connection in connections.values():
                        connection.close()
                    other, this = (statistics.median(walls[k]) * 1000 for k in ("other", "this"))
                    print(f"| {n} | {command} | {other:.1f} | {this:.1f} | {this / other:.2f} |", flush=True)
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait(10)


if __name__ == "__main__":
    main()
