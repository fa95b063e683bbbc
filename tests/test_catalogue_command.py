"""``ruling catalogue [KIND] [NAME]``: the catalogue's entries, values, sources and
modelled statuses, without reading TOML."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from checker.cli import EXIT_BAD_INPUT, EXIT_OK, main
from checker.engine import catalogue as cat


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_no_kind_lists_every_kind_with_its_statuses():
    n5 = cat.load("n5")
    result = run("catalogue")
    assert result.exit_code == EXIT_OK
    lines = result.stdout.splitlines()
    assert lines[0] == "Catalogue N5 (ruling catalogue KIND [NAME] --edition n5):"
    special = n5.all("special_skills")
    counts = [sum(e.modelled == s for e in special) for s in ("yes", "partial", "no")]
    assert f"  special_skills    {len(special)} entries: {counts[0]} modelled, {counts[1]} partly modelled, " \
           f"{counts[2]} not modelled" in lines
    assert f"  profiles          {len(n5.all('profiles'))} entries" in lines
    assert len(lines) == 1 + len(cat.KINDS)


def test_no_kind_as_json():
    data = json.loads(run("catalogue", "--edition", "n3", "--format", "json").stdout)
    assert data["edition"] == "n3"
    assert [k["kind"] for k in data["kinds"]] == list(cat.KINDS)
    traits = next(k for k in data["kinds"] if k["kind"] == "traits")
    n3 = cat.load("n3").all("traits")
    assert traits == {"kind": "traits", "entries": len(n3),
                      "modelled": {s: sum(t.modelled == s for t in n3) for s in ("yes", "partial", "no")}}
    assert "modelled" not in next(k for k in data["kinds"] if k["kind"] == "profiles")


def test_a_kind_lists_every_entry_with_its_status():
    result = run("catalogue", "skills")
    assert result.exit_code == EXIT_OK
    lines = result.stdout.splitlines()
    skills = cat.load("n5").all("skills")
    assert lines[0] == f"N5 skills ({len(skills)}):"
    words = {"yes": "modelled", "partial": "partly modelled", "no": "not modelled"}
    entry_lines = [line for line in lines if line.startswith("  ") and not line.startswith("    ")]
    assert entry_lines == [f"  {s.name} [{s.id}]: {words[s.modelled]}" for s in skills]
    i = lines.index("  Dodge [dodge]: modelled")
    assert not lines[i + 1].startswith("    missing:")
    partial = next(s for s in skills if s.modelled == "partial")
    i = lines.index(f"  {partial.name} [{partial.id}]: partly modelled")
    assert lines[i + 1] == "    missing: " + str(partial.missing)


def test_a_kind_as_json_holds_every_value():
    data = json.loads(run("catalogue", "special skills", "--edition", "n3", "--format", "json").stdout)
    assert data["kind"] == "special_skills"
    assert {e["id"] for e in data["entries"]} == set(cat.load("n3").entries["special_skills"])
    sensor = next(e for e in data["entries"] if e["id"] == "sensor")
    assert sensor == {**cat.load("n3").entries["special_skills"]["sensor"].data}
    assert list(sensor)[:6] == ["id", "name", "modelled", "missing", "source", "levels"]


def test_one_entry_with_all_its_values():
    result = run("catalogue", "weapons", "Combi Rifle")
    assert result.exit_code == EXIT_OK
    source = cat.load("n5").entries["weapons"]["combi_rifle"].source
    assert result.stdout.splitlines() == [
        "Combi Rifle [combi_rifle] (N5 weapon)",
        "  aliases: Combi",
        "  modelled: yes",
        f"  source: {source}",
        "  kind: bs",
        "  burst: 3",
        "  ps: 7",
        "  ammunition: N",
        "  saving: ARM",
        "  ranges: 0-8 in +3, 8-16 in +3, 16-24 in -3, 24-32 in -3, 32-40 in -6, 40-48 in -6",
        "  template: none",
        "  template_type: none",
        "  traits: Suppressive Fire",
    ]


def test_one_entry_as_json_and_its_modes():
    data = json.loads(run("catalogue", "weapon", "multi rifle", "--format", "json").stdout)
    multi = cat.load("n5").entries["weapons"]["multi_rifle"]
    assert data == {"edition": "n5", "kind": "weapons",
                    "entry": json.loads(json.dumps(dict(multi.data)))}
    assert data["entry"]["modelled"] == "partial"
    text = run("catalogue", "weapons", "MULTI Rifle").stdout
    assert ("  modes: Anti-materiel Mode: burst 1, ammunition DA, traits Anti-materiel; "
            "AP Mode: burst 3, ammunition AP, traits Suppressive Fire; "
            "Shock Mode: burst 3, ammunition Shock, traits Suppressive Fire") in text.splitlines()


@pytest.mark.parametrize("args, entry_id", [
    (("weapons", "combi"), "combi_rifle"),  # an alias, any case
    (("weapons", "combi_rifle"), "combi_rifle"),  # the id
    (("special-skills", "Mimetism (-3)"), "mimetism"),  # a parameter
    (("special_skill", "Sixth Sense L2", "--edition", "n3"), "sixth_sense"),  # a level
    (("traits", "Disposable (2)"), "disposable"),  # as a weapon chart writes it
    (("traits", "State: IMM-A"), "state__imm_a"),
    (("ammunition", "E/M"), "e_m"),
    (("Ammunition", "normal"), "n"),
    (("states", "IMM-A"), "immobilized_a"),
    (("characteristics", "Cube"), "cube"),
])
def test_names_are_found_as_positions_and_charts_write_them(args, entry_id):
    result = run("catalogue", *args, "--format", "json")
    assert result.exit_code == EXIT_OK, result.output
    assert json.loads(result.stdout)["entry"]["id"] == entry_id


def test_a_profile_has_values_but_no_status():
    """The N3 Fusilier holds only the values seed examples state (BS 12: seed 003 p.34)."""
    result = run("catalogue", "profiles", "Fusilier", "--edition", "n3")
    assert result.exit_code == EXIT_OK
    lines = result.stdout.splitlines()
    assert lines[0] == "Fusilier [fusilier] (N3 profile)"
    assert not any(line.startswith("  modelled:") for line in lines)
    assert "  bs: 12" in lines


def test_unknown_kind_is_bad_input_with_a_hint():
    result = run("catalogue", "wepons")
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stdout == ""
    assert result.stderr.strip() == (
        "unknown catalogue kind 'wepons'; did you mean 'weapons'? kinds: " + ", ".join(cat.KINDS))
    data = json.loads(run("catalogue", "wepons", "--format", "json").stdout)
    assert data["error"]["kind"] == "catalogue"


def test_unknown_name_is_bad_input_with_a_hint():
    result = run("catalogue", "weapons", "Combi Rifel")
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stderr.strip() == "no weapon named 'Combi Rifel' in the n5 catalogue; did you mean 'Combi Rifle'?"
    far = run("catalogue", "traits", "Zzzz", "--edition", "n3")
    assert far.exit_code == EXIT_BAD_INPUT
    assert far.stderr.strip() == "no trait named 'Zzzz' in the n3 catalogue; see 'ruling catalogue traits --edition n3'"


def test_unknown_edition_is_refused_by_the_option():
    result = run("catalogue", "--edition", "n4")
    assert result.exit_code == EXIT_BAD_INPUT
    assert "'n4' is not one of" in result.stderr
