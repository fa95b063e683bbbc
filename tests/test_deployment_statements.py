"""The Deployment Phase's statements beside a ``deploy`` line (docs/deployment.md):
objectives and neutral elements with the contact naming them, where an N3 Dispersion Roll
put the trooper, ``off table`` carried by a sequence to the first Order's pool, and the N5
Airborne Deployment Order written beside its ``deploy`` line. What
the rule base makes of them is in the cases under cases/*/deployment and
cases/*/deployment_phase; here, what the notation reads and the errors it locates."""

from __future__ import annotations

import pytest

from checker.engine import catalogue
from checker.engine.errors import NotationError, PositionError
from checker.infinity import facts, notation, resolve, sequence, state_writer

N3 = """edition n3
active panoceania
trooper cj panoceania { skills: AD: Combat Jump; PH 11 }
trooper alg nomads Alguacil
"""
N5 = N3.replace("edition n3", "edition n5").replace("AD: Combat Jump", "Combat Jump")


def _game(text: str):
    return resolve.resolve(notation.parse(text, "d.pos"))


def test_objectives_neutrals_and_their_contact_become_facts():
    game = _game(N5 + "objective o1\nneutral civ\ncontact cj o1\ncontact civ cj\ndeploy cj jump enemy half\n")
    assert game.elements == (("o1", "objective"), ("civ", "neutral"))
    assert game.element_contacts == (("cj", "o1"), ("cj", "civ"))
    assert not any(r.kind == "contact" for r in game.relations)
    shown = {str(s).replace("\"", "") for s in facts.build(game, catalogue.load("n5"))}
    assert {"element(o1,objective)", "contact_element(cj,o1)", "contact_element(cj,civ)"} <= shown, sorted(shown)


def test_dispersion_and_off_table_are_read():
    position = notation.parse(N3 + "off table alg\ndeploy cj jump enemy half\ndice cj: 15\n"
                              "dispersion cj enemy half blocked\n", "d.pos")
    assert [(d.trooper.text, d.zone.text, d.blocked) for d in position.dispersions] == [("cj", "enemy half", True)]
    assert [(a.kind, a.subject.text) for a in position.army] == [("off_table", "alg")]
    game = resolve.resolve(position)
    assert game.dispersions == (("cj", "enemy_half", True),)
    shown = {str(s).replace("\"", "") for s in facts.build(game, catalogue.load("n3"))}
    assert {"dispersion(cj,enemy_half)", "dispersion_blocked(cj)", "off_table(alg)"} <= shown
    assert [(f.kind, f.subject) for f in game.army] == [("off_table", "alg")]


@pytest.mark.parametrize(("text", "line", "words"), [
    (N5 + "objective cj\n", 5, "already used by a trooper"),
    (N5 + "objective o1\nneutral o1\n", 6, "already used by a trooper or another element"),
    (N5 + "objective o1\nlof cj -> o1\n", 6, "only 'contact' relates it"),
    (N5 + "objective o1\nneutral n\ncontact o1 n\n", 7, "only 'contact' relates it, to a trooper"),
    (N5 + "deploy cj jump enemy half\ndice cj: 15\ndispersion cj enemy half\n", 7, "makes no Dispersion Roll"),
    (N3 + "dispersion cj enemy half\ndeploy alg own zone\n", 5, "makes no deployment here"),
    (N3 + "deploy cj jump enemy half\ndice cj: 15\ndispersion cj off table\ndispersion cj enemy half\n", 8,
     "a second 'dispersion'"),
    (N5 + "off table zz\n", 5, "unknown trooper id"),
    (N5 + "off table cj\norder cj: Combat Jump\ndeploy alg own zone\n", 7, "'deploy cj jump ZONE'"),
    (N5 + "off table cj\norder cj: Combat Jump\ndeploy cj edge enemy half\n", 7, "'deploy cj jump ZONE'"),
    (N5 + "off table cj\norder cj: Combat Jump\n", 6, "entering the table where one 'deploy' line says"),
    (N5 + "order alg: Move\ndeploy cj own zone\n", 5, "a deployment or an Order with its AROs, not both"),
    (N5 + "deploy cj own zone\ndeploy alg own zone\n", 6, "a second 'deploy' statement"),
    (N5 + "deployable m1 panoceania { weapons: Shock Mine }\ndeploy cj own zone places m1 off table\n", 6,
     "a placed Deployable stands on the table"),
    (N3 + "species panoceania human\nspecies panoceania alien\n", 6, "a second 'species' statement"),
    (N3 + "species zz human\n", 5, "no trooper is on the side 'zz'"),
    (N5 + "species panoceania human\n", 5, "no N5 rule reads a species"),
    (N5 + "spent alg airborne\n", 5, "has no skill that lands it with its own Order"),
    (N3 + "spent cj airborne\n", 5, "has no skill that lands it with its own Order"),
])
def test_deployment_statement_errors_are_located(text, line, words):
    with pytest.raises(PositionError) as caught:
        _game(text)
    assert caught.value.location.line == line and words in str(caught.value), str(caught.value)


def test_dispersion_in_a_sequence_belongs_to_a_step():
    with pytest.raises(NotationError) as caught:
        sequence.split(N3 + "dispersion cj off table\nstep 1\ndeploy cj jump enemy half\n", "s.pos")
    assert caught.value.location.line == 5 and "before the first 'step'" in str(caught.value)


SEQ = """edition n5
active pano
trooper cj pano { group 1; skills: Combat Jump; PH 11 }
trooper f pano { group 1; PH 10 }
trooper e ariadna { weapons: Rifle }
pool pano group 1
spent pano group 1: 0
step 1
deploy cj off table
step 2
deploy f own zone
step 3
order f from group 1: Move
step 4
deploy cj jump enemy half
dice cj: 3
"""


def test_state_after_the_deployments_keeps_the_trooper_off_the_table_and_the_turn_unstarted():
    text, _ = state_writer.state_text(SEQ, "s.pos", 2)
    assert "off table cj" in text and "pool pano group 1\n" in text and "spent pano group 1: 0" in text


def test_state_after_the_first_order_counts_the_pool_without_it():
    text, _ = state_writer.state_text(SEQ, "s.pos", 3)
    assert "pool pano group 1: 1" in text and "spent pano group 1: 1" in text and "off table cj" in text


def test_a_later_jump_puts_the_trooper_on_the_table():
    _, carry, count, stop = sequence.judge(sequence.split(SEQ, "s.pos"))
    assert stop is None and count == 4 and carry.off_table == set() and carry.started


def test_a_placed_deployable_may_state_its_zone():
    game = _game(N5.replace("skills: Combat Jump", "skills: Minelayer") + "deployable m1 panoceania { weapons: Shock Mine }\n"
                 "deployable m2 panoceania { weapons: Shock Mine }\ndeploy cj own half places m1 enemy half, m2\n")
    assert game.deploy_places == (("cj", "m1"), ("cj", "m2"))
    assert game.deploy_places_in == (("cj", "m1", "enemy_half"),)
    shown = {str(s).replace("\"", "") for s in facts.build(game, catalogue.load("n5"))}
    assert "deploy_places_in(cj,m1,enemy_half)" in shown


def test_species_is_a_side_statement():
    game = _game(N3 + "species panoceania human\nspecies nomads Human\ndeploy cj own zone\n")
    assert [(f.kind, f.subject, f.own) for f in game.army] == [("species", "panoceania", "human"),
                                                                ("species", "nomads", "human")]
    shown = {str(s) for s in facts.build(game, catalogue.load("n3"))}
    assert 'species("panoceania","human")' in shown


def test_a_coordinated_landing_takes_a_deploy_line_for_each_trooper():
    text = (N5.replace("trooper alg", "trooper cj2 panoceania { skills: Combat Jump; PH 11 }\ntrooper alg")
            + "off table cj\noff table cj2\norder cj coordinated spearhead: Combat Jump\n"
            "order cj2 coordinated: Combat Jump\ndeploy cj jump enemy half\ndeploy cj2 jump own half\n")
    assert _game(text).deployments == (("cj", "enemy_half"), ("cj2", "own_half"))
    with pytest.raises(PositionError) as caught:
        _game(text.replace("deploy cj2 jump own half\n", ""))
    assert "each of a Coordinated Order's troopers" in str(caught.value)


LANDING = """edition n5
active pano
trooper cj pano { group 1; skills: Combat Jump, Impetuous; PH 11 }
trooper f pano { group 1; PH 10 }
trooper e ariadna { weapons: Rifle }
off table cj
pool pano group 1
step 1
order cj impetuous: Combat Jump
deploy cj jump enemy half
dice cj: 3
step 2
order f from group 1: Move
"""


def test_a_landing_spends_the_troopers_own_order_and_starts_the_turn():
    text, _ = state_writer.state_text(LANDING, "s.pos", 1)
    assert "spent cj airborne" in text and "spent cj impetuous" in text
    assert "pool pano group 1: 1" in text and "off table cj" not in text
    again = notation.parse(text.replace("step 2\n", ""), "s.pos")
    assert ("spent_own", "cj", "airborne") in {(d.kind, d.subject.text, d.own) for d in again.army}


def test_a_troopers_own_species_is_read_and_written_back():
    text = ("edition n3\nactive combined\nspecies combined morat\n"
            "trooper fid combined { WIP 13; species Human; skills: Impersonation L1 }\n"
            "trooper fus panoceania Fusilier\nstep 1\ndeploy fid enemy half\nstep 2\ndeploy fus own zone\n")
    game = _game(text.split("step 1\n")[0] + "deploy fid enemy half\n")
    assert game.trooper("fid").species == "human"
    shown = {str(s) for s in facts.build(game, catalogue.load("n3"))}
    assert 'trooper_species("fid","human")' in shown
    after, _ = state_writer.state_text(text, "s.pos", 1)
    assert "species Human" in after
