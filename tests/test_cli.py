"""The CLI as a user meets it: exit codes, output formats, and errors without tracebacks."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from checker.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main

from .conftest import ROOT

EXAMPLE = str(ROOT / "examples" / "hellcat.pos")
HEADER = "edition n3\nactive nomads\ntrooper hellcat nomads { weapons: Boarding Shotgun }\n"
HEADER += "trooper fus1 panoceania { weapons: Combi Rifle }\n"


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_aros_on_the_bundled_example():
    result = run("aros", EXAMPLE)
    assert result.exit_code == EXIT_OK
    assert "fus1: may react (LoF after the first skill)" in result.output
    assert "[template_dodge] N3 seed 003_ffd030bb113e9f57.txt p.35" in result.output


def test_aros_json_lists_every_option_with_its_verdict():
    data = json.loads(run("aros", EXAMPLE, "--format", "json").output)
    fus2 = next(t for t in data["reactive"] if t["trooper"] == "fus2")
    legal = {o["skill"] for o in fus2["options"] if o["status"] == "legal"}
    assert legal == {"dodge", "change_facing"}
    # fus2 has no LoF: every option the template does not allow is denied by aro_trigger
    denied = [o for o in fus2["options"] if o["status"] != "legal"]
    assert {o["status"] for o in denied} == {"denied"}
    assert [o["skill"] for o in denied if "aro_trigger" not in {c["rule"] for c in o["denied_by"]}] == []
    assert {o["skill"] for o in denied} == {o["skill"] for o in fus2["options"]} - legal
    assert [c["rule"] for o in denied for c in o["denied_by"] if not c["source"] or not c["text"]] == []


def test_check_illegal_aro_exits_1_and_names_the_rule(write):
    path = write(HEADER + "order hellcat: Move\naro fus1: Move\n")
    result = run("check", path)
    assert result.exit_code == EXIT_ILLEGAL
    assert "aro fus1: denied" in result.output and "[aro_skill]" in result.output


def test_check_legal_exits_0(write):
    path = write(HEADER + "lof fus1 <-> hellcat\norder hellcat: Move\naro fus1: BS Attack (Combi Rifle) -> hellcat\n")
    result = run("check", path)
    assert result.exit_code == EXIT_OK, result.output
    assert "  aro fus1: legal\n" in result.stdout and "ILLEGAL" not in result.stdout


@pytest.mark.parametrize("text, line, words", [
    ("%%% garbage &&&\n", 1, "unexpected '%%% garbage &&&'"),
    ("edition n5\x00\n", 1, "unexpected '\\x00'"),
    (HEADER + "lof fus9 -> hellcat\n", 5, "unknown trooper id 'fus9'"),
    (HEADER + "order hellcat: Teleport\n", 5, "unknown skill 'Teleport'"),
    (HEADER + "order hellcat: BS Attack (Laser Cannon) -> fus1\n", 5, "unknown weapon or piece of equipment 'Laser Cannon'"),
    (HEADER + "trooper z panoceania { skills: Flight }\n", 5, "unknown special skill 'Flight'"),
])
def test_bad_input_exits_2_with_location_and_no_traceback(write, text, line, words):
    path = write(text)
    for command in ("aros", "check"):
        result = run(command, path)
        assert result.exit_code == EXIT_BAD_INPUT
        assert result.stdout == ""
        assert result.stderr.startswith(f"{path}:{line}:") and words in result.stderr.splitlines()[0]
        assert "Traceback" not in result.stderr


def test_bad_input_in_json_is_an_error_object(write):
    path = write("edition n9\nactive a\n")
    result = run("aros", path, "--format", "json")
    assert result.exit_code == EXIT_BAD_INPUT
    error = json.loads(result.stdout)["error"]
    assert (error["kind"], error["file"], error["line"], error["column"]) == ("position", path, 1, 9)
    assert result.stderr.startswith(f"{path}:1:9: error: ")


def test_unreadable_file_exits_2(tmp_path):
    (tmp_path / "bin.pos").write_bytes(b"\xff\xfe\x00")
    for name, error in (("bin.pos", ":1:1: error: the file is not UTF-8 text"), ("missing.pos", ": cannot read: ")):
        result = run("aros", str(tmp_path / name))
        assert result.exit_code == EXIT_BAD_INPUT
        assert result.stdout == "" and result.stderr.startswith(f"{tmp_path / name}{error}"), result.stderr


def test_verify_counts_and_fails_on_a_wrong_case(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(
        'source = "seed 003_ffd030bb113e9f57.txt p.30"\ncommand = "aros"\n'
        f'position = """\n{HEADER}lof fus1 -> hellcat\norder hellcat: Move\n"""\n'
        '[expect]\ntriggers.fus1 = ["lof"]\n', encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace('["lof"]', '["zoc"]'), encoding="utf-8")
    result = run("verify", str(good))
    assert result.exit_code == EXIT_OK and "1 passed, 0 failed" in result.output
    result = run("verify", str(tmp_path))
    assert result.exit_code == EXIT_ILLEGAL and "1 passed, 1 failed" in result.output
    assert "missing:    zoc" in result.output and "unexpected: lof" in result.output


def test_help_documents_exit_codes():
    for args in (["--help"], ["aros", "--help"], ["verify", "--help"]):
        lines = [line.strip() for line in run(*args).output.splitlines()]
        assert "Exit codes:" in lines
        codes = [line.split()[0] for line in lines[lines.index("Exit codes:") + 1:] if line[:1].isdigit()]
        assert codes == [str(EXIT_OK), str(EXIT_ILLEGAL), str(EXIT_BAD_INPUT)]


def test_declarations_lists_each_slot_and_the_rules(write):
    path = write(HEADER + "lof hellcat -> fus1\norder hellcat\n")
    result = run("declarations", path)
    assert result.exit_code == EXIT_OK
    assert "First skill, or a whole-Order skill:" in result.output and "Second skill:" in result.output
    assert "BS Attack (Boarding Shotgun) -> fus1" in result.output
    data = json.loads(run("declarations", path, "--format", "json").output)
    legal = {(o["slot"], o["skill"], o["weapon"], o["target"]) for o in data["options"] if o["status"] == "legal"}
    attacks = {option for option in legal if option[1] == "bs_attack"}
    assert attacks == {(1, "bs_attack", "boarding_shotgun", "fus1"), (2, "bs_attack", "boarding_shotgun", "fus1")}
    assert {(slot, skill) for slot, skill, _, _ in legal} >= {(1, "move"), (2, "move")}
    assert {slot for slot, _, _, _ in legal} == {1, 2}


def test_facts_as_json_are_the_text_s_facts(write):
    text_run = run("facts", EXAMPLE)
    json_run = run("facts", EXAMPLE, "--format", "json")
    assert text_run.exit_code == json_run.exit_code == EXIT_OK
    data = json.loads(json_run.output)
    head, *facts = text_run.output.splitlines()
    assert (data["rule_set"], head) == ("n3", f"% python -m clingo {data['entry']} <this file>")
    assert data["facts"] == facts and 'trooper("hellcat").' in facts
    bad = run("facts", write("edition n5\nactive a\ntrooper a a { weapons: Nope }\n"), "--format", "json")
    assert bad.exit_code == EXIT_BAD_INPUT
    assert json.loads(bad.stdout)["error"]["message"].startswith("unknown weapon")
