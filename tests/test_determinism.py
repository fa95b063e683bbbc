"""Same input, byte-identical output: no command's output may depend on Python's
string hashing (``PYTHONHASHSEED``), e.g. through iterating over a set."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib

from .conftest import ROOT

# Run in a child process, so that its hash seed is the one under test: every command,
# both formats, over case positions rich in special skills, weapons and states.
SCRIPT = r"""
import hashlib, sys
from click.testing import CliRunner
from checker.cli import main

digest = hashlib.sha256()
runner = CliRunner()
for path in sys.argv[1:]:
    for command in (["facts"], ["aros"], ["declarations"], ["check"],
                    ["aros", "--format", "json"], ["declarations", "--format", "json"],
                    ["check", "--format", "json"]):
        result = runner.invoke(main, [*command, path])
        digest.update(f"{path} {command} {result.exit_code}\n{result.output}".encode())
print(digest.hexdigest())
"""


def _positions(tmp_path, count: int = 8) -> list[str]:
    """The case positions naming the most distinct special skills, then weapons and states."""
    scored = []
    for case in sorted((ROOT / "cases").rglob("*.toml")):
        text = tomllib.loads(case.read_text(encoding="utf-8"))["position"]
        skills = {item.strip() for line in re.findall(r"skills:([^;}\n]*)", text) for item in line.split(",")}
        score = len(skills) * 10 + sum(text.count(w) for w in ("weapons:", "state:", "characteristics:"))
        scored.append((-score, str(case), text))
    paths = []
    for n, (_, _, text) in enumerate(sorted(scored)[:count]):
        path = tmp_path / f"p{n}.pos"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def _digest(seed: str, paths: list[str]) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-c", SCRIPT, *paths], env=env, capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return done.stdout.strip()


def test_output_does_not_depend_on_the_hash_seed(tmp_path):
    paths = _positions(tmp_path)
    digests = {seed: _digest(seed, paths) for seed in ("0", "1", "4242")}
    assert len(set(digests.values())) == 1, digests
