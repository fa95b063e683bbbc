"""Fuzz the CLI with mutated case positions: no traceback, no run over the time limit.

Each run mutates one position of ``cases/**/*.toml`` (characters inserted, deleted or
replaced, tokens swapped, numbers replaced by huge, negative, decimal or non-ASCII-digit
ones, lines repeated, now and then an invalid UTF-8 byte), writes it to a file and runs
``aros``, ``declarations`` or ``check`` in text or JSON in a forked child, killed past
the limit. It prints one JSON line of counts: runs, tracebacks, runs over the limit, JSON
outputs that do not parse, exit-2 errors without ``file:line:col`` and a caret, and the
exit codes. The suite's ``tests/test_fuzz.py`` does the same for a bounded number of
examples; this script is for the large runs (10,000 and more) a change is measured by::

    python benchmarks/fuzz.py --runs 10000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import tomllib
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner

from checker.cli import main
from checker.engine import catalogue
from checker.infinity import notation

NUMBERS = ["2147483648", "-2147483649", "99999999999999999999", "214748364.8", "-1", "0", "1.5",
           "²", "-²", "٣", "１２", "9" * 4301, "2147483647", "100000000", "-0", "00", "3.", ".5", "1e9"]
CHARACTERS = [*"abcxyz ->:+,()[]{}#;\n\t0123456789-.", "\x00", "é", "☃", "²", "\r", "\ufeff"]


def positions() -> list[str]:
    """Every case position."""
    found = []
    for path in sorted((ROOT / "cases").rglob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if "position" in data:
            found.append(data["position"])
    return found


def mutate(text: str, rng: random.Random) -> str:
    """One or two random edits of ``text``."""
    for _ in range(rng.randint(1, 2)):
        op = rng.choice(["insert", "delete", "replace", "swap", "number", "number", "number", "repeat"])
        if op in ("insert", "delete", "replace") and text:
            i = rng.randrange(len(text))
            keep = text[i:] if op == "insert" else text[i + 1:]
            text = text[:i] + ("" if op == "delete" else rng.choice(CHARACTERS)) + keep
        elif op == "swap":
            tokens = re.split(r"(\s+)", text)
            words = [i for i, t in enumerate(tokens) if t and not t.isspace()]
            if len(words) > 1:
                a, b = rng.sample(words, 2)
                tokens[a], tokens[b] = tokens[b], tokens[a]
            text = "".join(tokens)
        elif op == "number":
            numbers = list(re.finditer(r"-?\d+(\.\d+)?", text))
            if numbers:
                m = rng.choice(numbers)
                text = text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]
        elif op == "repeat":
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
    return text


def child(path: str, command: str, fmt: str, out: int) -> None:
    """Run one command; write what it did to the pipe ``out``."""
    result = CliRunner().invoke(main, [command, path, "--format", fmt])
    info: dict = {"code": result.exit_code, "traceback": None}
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        info["traceback"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-1500:]
    if fmt == "json":
        try:
            json.loads(result.stdout)
            info["json"] = True
        except ValueError:
            info["json"] = False
    if result.exit_code == 2:
        info["located"] = bool(re.search(re.escape(path) + r":\d+:\d+", result.stderr)) and "^" in result.stderr
    os.write(out, json.dumps(info).encode())
    os.close(out)
    os._exit(0)


def run_one(path: str, command: str, fmt: str, limit: float) -> dict:
    """Fork, run, and kill the child past ``limit`` seconds."""
    read, write = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            child(path, command, fmt, write)  # exits the child itself
        finally:
            os._exit(3)  # only if it raised
    os.close(write)
    slow = False
    while not os.waitpid(pid, os.WNOHANG)[0]:
        if time.monotonic() - start > limit:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            slow = True
            break
        time.sleep(0.005)
    raw = os.read(read, 1 << 20)
    os.close(read)
    info = json.loads(raw) if raw else {"code": None, "traceback": "the child died"}
    info.update(slow=slow, seconds=round(time.monotonic() - start, 3))
    return info


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=10.0, help="seconds a run may take")
    parser.add_argument("--log", help="write one JSON line per failing run to this file")
    args = parser.parse_args()
    notation._parser()  # warm the caches the children share
    catalogue.load("n5")
    catalogue.load("n3")
    rng = random.Random(args.seed)
    texts = positions()
    counts = {"runs": 0, "tracebacks": 0, "over_limit": 0, "bad_json": 0, "unlocated": 0}
    codes: dict[str, int] = {}
    slowest = 0.0
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.runs):
            data = mutate(rng.choice(texts), rng).encode("utf-8", "surrogatepass")
            if rng.random() < 0.02:
                i = rng.randrange(len(data) + 1)
                data = data[:i] + bytes([rng.choice([0xFF, 0xC3, 0x80, 0xE2])]) + data[i:]
            path = os.path.join(folder, f"{n}.pos")
            Path(path).write_bytes(data)
            command, fmt = rng.choice(["aros", "declarations", "check"]), rng.choice(["text", "json"])
            info = run_one(path, command, fmt, args.limit)
            counts["runs"] += 1
            codes[str(info["code"])] = codes.get(str(info["code"]), 0) + 1
            slowest = max(slowest, info["seconds"])
            failed = {
                "over_limit": info["slow"],
                "tracebacks": bool(info.get("traceback")) and not info["slow"],
                "bad_json": info.get("json") is False,
                "unlocated": info["code"] == 2 and not info.get("located"),
            }
            for key, bad in failed.items():
                counts[key] += bad
            if any(failed.values()):
                failures.append(json.dumps({**info, "command": command, "format": fmt,
                                            "position": data.decode("utf-8", "replace")}))
    if args.log:
        Path(args.log).write_text("".join(f + "\n" for f in failures), encoding="utf-8")
    print(json.dumps({**counts, "exit_codes": codes, "slowest_seconds": slowest}))


if __name__ == "__main__":
    main_()
