"""Benchmark ruling on generated positions with N troopers a side.

Usage::

    python benchmarks/bench.py                 # N = 5, 15, 50, 200; 7 runs each
    python benchmarks/bench.py --sizes 5 15 --runs 3

For each N it prints the median parse, facts, ground and solve times, the peak memory
of a fresh process doing one full analysis, the ground atoms per (reactive trooper,
option) pair (flat = linear grounding), and the median wall time of the whole
`ruling aros` process. Timings are medians because the machines are shared and noisy;
nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import json
import random
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
    from checker import catalogue, facts, notation, report, resolve, solver

    t0 = time.perf_counter()
    parsed = notation.parse(text)
    t1 = time.perf_counter()
    game = resolve.resolve(parsed)
    symbols = facts.build(game, catalogue.load(game.edition))
    t2 = time.perf_counter()
    atoms = solver.solve(game.edition, symbols)
    aros = report.aro_report(game, atoms, catalogue.load(game.edition))
    pairs = sum(len(t.options) for t in aros.reactive)
    return {
        "parse": t1 - t0,
        "facts": t2 - t1,
        "ground": atoms.timings["ground"],
        "solve": atoms.timings["solve"],
        "ground_atoms": atoms.ground_atoms,
        "pairs": pairs,
    }


def child(path: str) -> None:
    """Run in a fresh process: one warm-up-free analysis and its peak RSS."""
    import resource

    result = measure_once(Path(path).read_text(encoding="utf-8"))
    result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def wall(path: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "checker", "aros", path],
            capture_output=True, check=True, cwd=Path(__file__).resolve().parent.parent,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 15, 50, 200])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    header = "| N a side | parse ms | facts ms | ground ms | solve ms | peak MiB | atoms/pair | `ruling aros` wall s |"
    print(header)
    print("|" + "---|" * 8)
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            path = Path(tmp) / f"n{n}.pos"
            path.write_text(position(n), encoding="utf-8")
            samples = []
            for _ in range(args.runs):
                out = subprocess.run(
                    [sys.executable, __file__, "--child", str(path)],
                    capture_output=True, text=True, check=True,
                ).stdout
                samples.append(json.loads(out))
            med = {k: statistics.median(s[k] for s in samples) for k in samples[0]}
            ratio = med["ground_atoms"] / med["pairs"]
            print(
                f"| {n} | {med['parse'] * 1e3:.1f} | {med['facts'] * 1e3:.1f} | "
                f"{med['ground'] * 1e3:.1f} | {med['solve'] * 1e3:.1f} | {med['peak_mib']:.0f} | "
                f"{ratio:.2f} | {wall(str(path), args.runs):.3f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
