"""Benchmark ruling on generated positions with N troopers a side, and `ruling verify`.

Usage::

    python benchmarks/bench.py                 # N = 5, 15, 50, 200, 2000; 7 runs each
    python benchmarks/bench.py --sizes 5 15 --runs 3
    python benchmarks/bench.py --quick         # N = 15, 200, 2000; 3 runs; verify once
    python benchmarks/bench.py --batching --runs 3   # what solving positions together saves
    python benchmarks/bench.py --table --sizes 15 50 200   # what measuring the table costs (table_bench.py)
    python benchmarks/bench.py --against /tmp/before --sizes 15 200 --runs 9   # against another commit's tree

Every wall time is also printed as a ratio to the floor: the median wall time of
``python -c "import clingo, lark, click"`` measured in the same run, so numbers taken
on different (or differently loaded) machines compare.

For each N it prints the median parse, facts, ground and solve times, the time to read
the shown atoms into Python and to build and render the ARO report, the peak memory
of a fresh process doing one full analysis, the ground atoms per (reactive trooper,
option) pair (flat = linear grounding), the median wall time of the whole
`ruling aros` process and its ratio to the floor, the ratios of `ruling
declarations` and `ruling check`, and (for N up to ``ODDS_UP_TO``) the wall time of
`ruling odds` (every legal option of every reactive trooper priced) as a ratio to
`ruling aros` on the same file. Then `ruling verify` over `cases/`: its wall time,
cases per second, CPU per case (all processes) and wall per case as a ratio to the
floor. With ``--batching``, only what the two ways of solving positions together save:
`ruling verify cases/` and `ruling odds` as they run and with every position solved
alone, and `ruling verify` with its cache folder (the rewritten rule base, the parsed
catalogue) filled and empty. With ``--against TREE`` (a worktree of another commit, made
with ``git worktree add TREE COMMIT``), only `ruling aros` and `ruling check` on the
positions of each N, run alternately with the floor, TREE's code and this tree's, each
tree with a cache folder of its own (the trees' caches would otherwise replace each
other's at every run). Timings are
medians because the machines are shared and noisy; nothing here is
asserted by the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Run from a checkout without installing: the repository root holds the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

WEAPONS = ("Combi Rifle, Pistol", "Boarding Shotgun, Pistol", "HMG, Pistol", "Rifle, Knife")


def position(n: int, seed: int = 1) -> str:
    """An N5 position: N troopers a side, the first active trooper moves and shoots."""
    rng = random.Random(seed)
    lines = ["edition n5", "active blue"]
    for side in ("blue", "red"):
        for i in range(n):
            weapons = WEAPONS[i % len(WEAPONS)]
            lines.append(f"trooper {side}{i} {side} {{ type LI; BS 12; PH 10; weapons: {weapons} }}")
    for i in range(n):
        if rng.random() < 0.5:
            lines.append(f"lof red{i} <-> blue0")
        elif rng.random() < 0.5:
            lines.append(f"zoc red{i} -> blue0")
        if rng.random() < 0.1:
            lines.append(f"lof red{i} -> blue0 from second")
        if i % 7 == 3:
            lines.append(f"contact red{i} blue{min(i, n - 1)}")
    lines.append("order blue0: Move + BS Attack (Combi Rifle) -> red0")
    lines.append("aro red0: BS Attack (Combi Rifle) -> blue0")
    return "\n".join(lines) + "\n"


def measure_once(text: str) -> dict:
    """One full analysis in this process, timed stage by stage."""
    from checker.engine import catalogue, solver
    from checker.infinity import facts, notation, render, report, resolve

    t0 = time.perf_counter()
    parsed = notation.parse(text)
    t1 = time.perf_counter()
    game = resolve.resolve(parsed)
    symbols = facts.build(game, catalogue.load(game.edition))
    t2 = time.perf_counter()
    atoms = solver.solve(game.edition, symbols, unread=report.UNREAD["aros"])  # as `ruling aros` reads them
    t3 = time.perf_counter()
    aros = report.aro_report(game, atoms, catalogue.load(game.edition))
    render.aros_text(aros)
    t4 = time.perf_counter()
    pairs = sum(len(t.options) for t in aros.reactive)
    return {
        "parse": t1 - t0,
        "facts": t2 - t1,
        "ground": atoms.timings["ground"],
        "solve": atoms.timings["solve"],
        "read": atoms.timings["read"],
        "report": t4 - t3,
        "ground_atoms": atoms.ground_atoms,
        "pairs": pairs,
    }


def child(path: str) -> None:
    """Run in a fresh process: one warm-up-free analysis and its peak RSS."""
    import resource

    result = measure_once(Path(path).read_text(encoding="utf-8"))
    result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


ROOT = Path(__file__).resolve().parent.parent
ODDS_UP_TO = 50  # `ruling odds` prices every option: beyond this it measures the dice, not the rules
FLOOR = [sys.executable, "-c", "import clingo, lark, click"]
# Every run may write bytecode, as an installed ruling has it (pip compiles it at install
# time, as it did for clingo, lark and click): with PYTHONDONTWRITEBYTECODE set, each run
# would compile ruling's modules from source and the floor's not.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system, the process and its children) seconds of one run."""
    return timed_env(argv, {})


def timed_env(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """``timed``, with ``env`` added to the environment."""
    before = os.times()
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, cwd=ROOT, check=False, env={**ENV, **env})
    elapsed = time.perf_counter() - start
    after = os.times()
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {result.returncode}:\n{result.stderr.decode()}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return elapsed, cpu


def wall(argv: list[str], runs: int) -> float:
    """Median wall seconds of ``runs`` runs, after one untimed run (bytecode written,
    files in the page cache)."""
    timed(argv)
    return statistics.median(timed(argv)[0] for _ in range(runs))


def ruling(command: str, path: str) -> list[str]:
    return [sys.executable, "-m", "checker", command, path]


def verify(runs: int, floor: float) -> None:
    """``ruling verify cases/``: wall, cases per second, CPU and wall per case."""
    count = sum(1 for _ in (ROOT / "cases").rglob("*.toml"))
    samples = [timed([sys.executable, "-m", "checker", "verify", "cases", "--format", "json"]) for _ in range(runs)]
    elapsed = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    print()
    print("| `ruling verify cases/` | cases | wall s | cases/s | CPU ms/case | wall/case ÷ floor |")
    print("|---|---|---|---|---|---|")
    print(
        f"| {os.cpu_count()} cores | {count} | {elapsed:.2f} | {count / elapsed:.1f} | "
        f"{cpu / count * 1e3:.1f} | {elapsed / count / floor:.2f} |",
        flush=True,
    )


def alone(argv: list[str]) -> None:
    """Run ``ruling ARGV`` in this process with every position solved alone: no batch of
    ``ruling verify`` grounded together (``solver_many``), no copy of ``ruling odds``
    grounded in its position's program (``solver_copies``)."""
    from checker import cli
    from checker.engine import solver_copies, solver_many

    solver_many.prefetch = lambda *_args, **_kwargs: None
    solver_copies.Copies._copies = lambda *_args, **_kwargs: None  # type: ignore[method-assign]
    cli.main(argv)


def batching(runs: int, floor: float) -> None:
    """What the two speed paths save: ``ruling verify cases/`` and ``ruling odds`` at 15 a
    side as they run, and with every position solved alone; then ``ruling verify`` of 64
    cases with its cache folder empty and filled."""
    print()
    print("| run | as it runs, wall s | every position alone, wall s | alone ÷ as it runs |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "n15.pos"
        path.write_text(position(15), encoding="utf-8")
        for name, argv in (("`ruling verify cases/`", ["verify", "cases"]), ("`ruling odds`, 15 a side", ["odds", str(path)])):
            batched = wall([sys.executable, "-m", "checker", *argv], runs)
            solo = wall([sys.executable, __file__, "--alone", *argv], runs)
            print(f"| {name} | {batched:.2f} | {solo:.2f} | {solo / batched:.2f} |", flush=True)
    cases = sorted((ROOT / "cases" / "n5").rglob("*.toml"))[:64]
    with tempfile.TemporaryDirectory() as empty:
        argv = [sys.executable, "-m", "checker", "verify", *map(str, cases)]
        cold = []
        for _ in range(runs):
            shutil.rmtree(Path(empty) / "ruling", ignore_errors=True)
            cold.append(timed_env(argv, {"XDG_CACHE_HOME": empty})[0])
        warm = statistics.median(timed_env(argv, {"XDG_CACHE_HOME": empty})[0] for _ in range(runs))
    print()
    print(f"`ruling verify` of {len(cases)} N5 cases: {statistics.median(cold):.2f} s with its cache folder empty, "
          f"{warm:.2f} s with it filled (the rewritten rule base, the parsed catalogue; medians of {runs}; floor {floor:.3f} s)", flush=True)


def against(tree: str, sizes: list[int], runs: int) -> None:
    """`ruling aros` and `ruling check` on this tree and on ``tree``, alternately with the
    floor, in one run: medians, each tree's ratio to the floor and to the other's."""
    trees = {"this": str(ROOT), "other": str(Path(tree).resolve())}
    print(f"| N a side | command | floor s | {tree} s | this tree s | {tree} ÷ floor | this ÷ floor | this ÷ {tree} |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        envs = {name: {"PYTHONPATH": path, "XDG_CACHE_HOME": str(Path(tmp) / f"cache-{name}")}
                for name, path in trees.items()}
        for n in sizes:
            path = Path(tmp) / f"n{n}.pos"
            path.write_text(position(n), encoding="utf-8")
            for command in ("aros", "check"):
                argv = [sys.executable, "-m", "checker", command, str(path)]
                for env in envs.values():  # bytecode written, caches filled
                    timed_in(argv, env, tmp)
                samples: dict[str, list[float]] = {"floor": [], "other": [], "this": []}
                for _ in range(runs):
                    samples["floor"].append(timed(FLOOR)[0])
                    for name, env in envs.items():
                        samples[name].append(timed_in(argv, env, tmp))
                floor, other, this = (statistics.median(samples[k]) for k in ("floor", "other", "this"))
                print(f"| {n} | {command} | {floor:.3f} | {other:.3f} | {this:.3f} | {other / floor:.2f} | "
                      f"{this / floor:.2f} | {this / other:.2f} |", flush=True)


def timed_in(argv: list[str], env: dict[str, str], cwd: str) -> float:
    """Wall seconds of one run in ``cwd`` (where ``python -m`` finds no package of its
    own), with ``env`` added to the environment."""
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, cwd=cwd, check=False, env={**ENV, **env})
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {result.returncode}:\n{result.stderr.decode()}")
    return time.perf_counter() - start


def face_to_face_ms() -> float:
    """Median milliseconds of one exact Face to Face of B6 (SV 15) against B3 (SV 12)."""
    from checker.infinity import dice

    a, b = dice.faces(15, "n5"), dice.faces(12, "n5")
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        dice.face_to_face(a, 6, b, 3)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=None)
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--quick", action="store_true", help="N = 15, 200, 2000; 3 runs; verify once")
    parser.add_argument("--no-verify", action="store_true", help="skip `ruling verify cases/`")
    parser.add_argument("--batching", action="store_true",
                        help="only what solving positions together saves (verify, odds, the cache folder)")
    parser.add_argument("--table", action="store_true",
                        help="only what measuring the table costs (benchmarks/table_bench.py)")
    parser.add_argument("--against", metavar="TREE",
                        help="only `ruling aros` and `ruling check`, alternately on this tree and TREE")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    if sys.argv[1:2] == ["--alone"]:
        alone(sys.argv[2:])
        return
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    sizes = args.sizes or ([15, 200, 2000] if args.quick else [5, 15, 50, 200, 2000])
    runs = args.runs or (3 if args.quick else 7)
    if args.table:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import table_bench  # benchmarks/table_bench.py

        table_bench.run(args.sizes or [15, 50, 200], runs)
        return
    if args.against:
        against(args.against, args.sizes or [15, 200], args.runs or 9)
        return
    floor = wall(FLOOR, max(runs, 5))
    print(f"floor (`python -c \"import clingo, lark, click\"`): {floor:.3f} s wall, median of {max(runs, 5)}")
    if args.batching:
        batching(runs, floor)
        return
    print(f"one Face to Face, B6 against B3 (checker.infinity.dice, in process): {face_to_face_ms():.2f} ms, median of 7")
    print()
    header = (
        "| N a side | parse ms | facts ms | ground ms | solve ms | read ms | report ms | peak MiB | atoms/pair "
        "| `ruling aros` wall s | aros ÷ floor | declarations ÷ floor | check ÷ floor | odds ÷ aros |"
    )
    print(header)
    print("|" + "---|" * 14)
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"n{n}.pos"
            path.write_text(position(n), encoding="utf-8")
            samples = []
            for _ in range(runs):
                out = subprocess.run(
                    [sys.executable, __file__, "--child", str(path)],
                    capture_output=True, text=True, check=True,
                ).stdout
                samples.append(json.loads(out))
            med = {k: statistics.median(s[k] for s in samples) for k in samples[0]}
            ratio = med["ground_atoms"] / med["pairs"]
            aros = wall(ruling("aros", str(path)), runs)
            declarations = wall(ruling("declarations", str(path)), runs)
            check = wall(ruling("check", str(path)), runs)
            odds = f"{wall(ruling('odds', str(path)), runs) / aros:.2f}" if n <= ODDS_UP_TO else "—"
            print(
                f"| {n} | {med['parse'] * 1e3:.1f} | {med['facts'] * 1e3:.1f} | "
                f"{med['ground'] * 1e3:.1f} | {med['solve'] * 1e3:.1f} | {med['read'] * 1e3:.1f} | "
                f"{med['report'] * 1e3:.1f} | {med['peak_mib']:.0f} | "
                f"{ratio:.2f} | {aros:.3f} | {aros / floor:.2f} | {declarations / floor:.2f} | "
                f"{check / floor:.2f} | {odds} |",
                flush=True,
            )
    if not args.no_verify:
        verify(1 if args.quick else 3, floor)
    print()
    print("Targets: aros, declarations and check at N=15 within 1.6x the floor (goal 1.3x); "
          "N=2000 `ruling aros` within 2.5 s; atoms/pair flat; `ruling odds` at N=15 within 2x "
          "`ruling aros`; one Face to Face of B6 against B3 under 10 ms; `ruling verify` 10x the cases/s of the table before (goal 1,000 "
          "cases/s on 2 cores).")


if __name__ == "__main__":
    main()
