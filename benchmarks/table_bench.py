"""What measuring the table costs (``python benchmarks/bench.py --table``).

For N troopers a side placed on a grid (2.4 inches apart) with 20 walls between its
rows, it times in process, median of the runs: reading and resolving the position
without its table statements, the same with them (the difference is what measuring
adds: checker/infinity/table_check.py), and the measuring alone, with its cost per
placed trooper (flat = linear: every trooper is measured against the activated one, and
contact between every two is found through a spatial index).
"""

from __future__ import annotations

import random
import statistics
import time

GRID = 2.4  # inches between troopers: no two bases (S2, 25 mm) touch
WALLS = 20


def position(n: int, seed: int = 1, table: bool = True) -> str:
    """An N5 position of N troopers a side, the first blue one moving; with ``table``,
    every trooper placed and 20 walls between the grid's rows."""
    rng = random.Random(seed)
    lines = ["edition n5", "active blue"]
    for side in ("blue", "red"):
        for i in range(n):
            lines.append(f"trooper {side}{i} {side} {{ type LI; S 2; BS 12; PH 10; weapons: Combi Rifle }}")
    columns = max(1, int(48 // GRID))
    spots = [(GRID / 2 + GRID * (k % columns), GRID / 2 + GRID * (k // columns)) for k in range(2 * n)]
    rows = (2 * n + columns - 1) // columns
    if table:
        for k, (x, y) in enumerate(spots):
            side, i = ("blue", k // 2) if k % 2 == 0 else ("red", k // 2)
            lines.append(f"at {side}{i} {x:.2f} {y:.2f} facing {rng.randrange(360)}")
        for w in range(WALLS):
            row = rng.randrange(max(rows, 1))
            y = GRID * (row + 1) - 0.1
            x = rng.uniform(0, 44)
            lines.append(f"terrain wall{w} solid height {rng.uniform(1, 3):.1f}: "
                         f"{x:.2f} {y:.2f}, {x + 3:.2f} {y:.2f}, {x + 3:.2f} {y + 0.2:.2f}, {x:.2f} {y + 0.2:.2f}")
    lines.append("order blue0: Move")
    return "\n".join(lines) + "\n"


def _median(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(sizes: list[int], runs: int) -> None:
    from checker.infinity import notation, resolve, table_check

    print("| N a side | placed | read + resolve, no table ms | with the table ms | measuring ms | µs per placed trooper |")
    print("|---|---|---|---|---|---|")
    for n in sizes:
        plain, placed = position(n, table=False), position(n)
        without = _median(lambda text=plain: resolve.resolve(notation.parse(text)), runs)
        with_table = _median(lambda text=placed: resolve.resolve(notation.parse(text)), runs)
        parsed = notation.parse(placed)
        game = resolve.resolve(parsed)

        def error(message, named, expected=()):
            raise AssertionError(message)

        alone = _median(lambda parsed=parsed, game=game: table_check.apply(parsed, game.troopers, error), runs)
        print(f"| {n} | {2 * n} | {without * 1e3:.1f} | {with_table * 1e3:.1f} | {alone * 1e3:.1f} | "
              f"{alone * 1e6 / (2 * n):.0f} |", flush=True)
    print()
    print("Target: measuring a 15-a-side position with 20 walls adds under 50 ms; µs per placed trooper flat "
          "from 15 to 200 a side.")
