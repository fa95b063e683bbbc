"""The game registry (checker/games.py): a position or a case goes to the game it names,
the commands know no game, and the engine (Python and ASP) names none."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker import games
from checker.cli import main
from checker.engine.cases import Case, CaseResult, Difference
from checker.engine.errors import NotationError, RulingError
from checker.engine.game import Output, named_game
from checker.engine.resources import catalogue_dir, rule_sets
from checker.infinity import editions

from .conftest import ROOT


class Toy:
    """A third game, known only to this test: it judges every position legal but for
    the word 'illegal'."""

    name = "toy"
    title = "Toy"
    coverage_page = "docs/toy.md"

    def rule_sets(self) -> tuple[str, ...]:
        return ("toy",)

    def catalogues(self) -> tuple[str, ...]:
        return ()

    def catalogue(self, name: str, kind: str | None, entry: str | None, fmt: str) -> Output:
        raise RulingError("no catalogue")

    def judge(self, command: str, text: str, file: str, fmt: str, *, legal_only: bool = False,
              strict: bool = False, with_odds: bool = False) -> Output:
        return Output(f"toy {command} {fmt}\n", "illegal" in text)

    def odds(self, text: str, file: str, fmt: str) -> Output:
        raise RulingError("no odds")

    def facts(self, text: str, file: str):
        return "toy", []

    def load_case(self, path: Path, data: dict, text: str) -> Case:
        return Case(path, data["source"], "", data["command"], data["position"], data["expect"])

    def run_cases(self, cases: list[Case]) -> Iterator[CaseResult]:
        for case in cases:
            legal = "illegal" not in case.position
            yield CaseResult(case, () if case.expect["legal"] == legal else (Difference("legal", (legal,)),))

    def coverage(self) -> str:
        return "# Toy\n"


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setattr(games, "GAMES", (*games.GAMES, Toy()))


@pytest.mark.parametrize("text, name", [
    ("edition n5\nactive a\n", None),
    ("game urban-war\nactive a\n", "urban-war"),
    ("game urban-war", "urban-war"),
    ("# a comment\n\ngame urban-war\nactive a\n", "urban-war"),
    ("# a comment\n\n  game toy # trailing\n", "toy"),
    ("\ufeffgame urban-war\n", "urban-war"),
    ("game urban-war\r\nactive a\r\n", "urban-war"),
    ("active a\ngame urban-war\n", None),  # not the first statement
    ("game urban-warx\n", "urban-warx"),
])
def test_the_first_statement_names_the_game(text, name):
    assert named_game(text) == name


def test_a_position_goes_to_the_game_it_names(toy):
    assert games.for_text("edition n3\n").name == "infinity"
    assert games.for_text("game urban-war\n").name == "urban-war"
    assert games.for_text("game toy\n").name == "toy"


def test_an_unknown_game_is_a_located_error():
    with pytest.raises(NotationError) as info:
        games.for_text("game chess\nactive a\n", "p.pos")
    assert str(info.value).startswith("p.pos:1:1:") and "unknown game 'chess'" in str(info.value)
    result = CliRunner().invoke(main, ["check", "-"], input="game chess\n")
    assert result.exit_code == 2 and "urban-war" in result.output


def test_the_commands_ask_the_registry_not_a_game(toy):
    runner = CliRunner()
    ok = runner.invoke(main, ["check", "-", "--format", "json"], input="game toy\n")
    assert (ok.exit_code, ok.output) == (0, "toy check json\n")
    bad = runner.invoke(main, ["aros", "-"], input="game toy\nillegal\n")
    assert (bad.exit_code, bad.output) == (1, "toy aros text\n")
    refused = runner.invoke(main, ["odds", "-"], input="game toy\n")
    assert refused.exit_code == 2 and "no odds" in refused.output


def test_cases_of_every_game_run_in_one_verify(toy, tmp_path):
    for name, position in (("a", "game toy"), ("b", "game toy\nillegal")):
        (tmp_path / f"{name}.toml").write_text(
            f'source = "x"\ncommand = "check"\nposition = """{position}"""\n[expect]\nlegal = true\n', encoding="utf-8")
    urban_war = ROOT / "cases" / "urban-war" / "orders" / "shoot_needs_los.toml"
    (tmp_path / "c.toml").write_text(urban_war.read_text(encoding="utf-8"), encoding="utf-8")
    found = games.collect_cases([tmp_path])
    assert [games.game_of(c).name for c in found] == ["toy", "toy", "urban-war"]
    results = list(games.run_cases(found))
    assert [r.case.path.stem for r in results] == ["a", "b", "c"]
    assert [r.passed for r in results[:2]] == [True, False]
    result = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert result.exit_code == 1 and "1 failed" in result.output


def test_every_rule_set_has_an_entry_file():
    assert set(games.rule_sets()) == {p.stem for p in (ROOT / "asp").glob("*.lp")} == set(rule_sets())


def test_each_infinity_edition_is_a_rule_set_with_a_catalogue():
    for edition in editions():
        assert (ROOT / "asp" / f"{edition}.lp").is_file() and (catalogue_dir() / edition).is_dir()


ENGINE_IMPORT = re.compile(r"^\s*(?:from|import)\s+(\S+)", re.MULTILINE)


def test_the_engine_imports_no_game():
    for path in (ROOT / "checker" / "engine").glob("*.py"):
        for module in ENGINE_IMPORT.findall(path.read_text(encoding="utf-8")):
            assert not re.match(r"(?:checker\.|\.\.)(?:infinity|urban_war|games)", module), (path.name, module)


def test_the_engine_rule_base_names_no_game():
    words = ("infinity", "urban", "edition", "normal", "trooper", "model")
    for path in (ROOT / "asp" / "engine").glob("*.lp"):
        code = "\n".join(line.split("%")[0] for line in path.read_text(encoding="utf-8").split("\n"))
        assert not [w for w in words if w in code], path.name


def test_the_checker_root_holds_only_the_command_and_the_registry():
    assert {p.name for p in (ROOT / "checker").glob("*.py")} == {"__init__.py", "__main__.py", "cli.py", "games.py"}


def test_results_come_in_case_order_across_games_and_worker_processes():
    infinity = games.collect_cases([ROOT / "cases" / "n5" / "pending"])
    urban_war = games.collect_cases([ROOT / "cases" / "urban-war" / "orders"])
    found = [c for pair in zip(infinity, urban_war) for c in pair] + infinity[len(urban_war):]
    assert len(infinity) >= 8  # enough for the Infinity cases to run in worker processes
    results = list(games.run_cases(found))
    assert [r.case.path for r in results] == [c.path for c in found]
    assert all(r.passed for r in results)
