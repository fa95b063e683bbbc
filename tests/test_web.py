"""The web server through its ASGI app (no network): the API answers what
``ruling COMMAND --format json`` prints, bad input is the located error with status 400,
and the server keeps its limits (size, no file access, headers, no stack trace)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tests.web_support import need_modules

need_modules("starlette", "httpx", "jinja2", "uvicorn")

with warnings.catch_warnings():  # Starlette names a successor of httpx; httpx is the client pinned
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from checker.web import app as web_app
from checker.web import guard
from checker.web.examples import bundled

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    with TestClient(web_app.create_app(hosts=("testserver",), warm=False), raise_server_exceptions=False) as c:
        yield c


def cli_json(command: str, path: Path) -> tuple[int, dict]:
    run = subprocess.run([sys.executable, "-m", "checker", command, str(path), "--format", "json"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    return run.returncode, json.loads(run.stdout)


CALLS = [("aros", "hellcat"), ("check", "resolution"), ("odds", "odds"), ("declarations", "n5-doctor"),
         ("aros", "urban-war-overwatch"), ("declarations", "urban-war-declarations"), ("check", "urban-war-overwatch")]


@pytest.mark.parametrize("command, name", CALLS)
def test_the_api_answers_what_the_command_prints_in_json(client, command, name):
    path = ROOT / "examples" / f"{name}.pos"
    code, printed = cli_json(command, path)
    answer = client.post(f"/api/{command}", json={"position": path.read_text(encoding="utf-8")})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == printed
    assert answer.headers["ruling-failed"] == ("1" if code == 1 else "0")


def test_a_notation_error_is_the_located_error_with_status_400(client, tmp_path):
    text = "edition n5\nactive nomads\ntrooper alg nomads Alguacil { BS 11 }\ncover alg partial hellcat\n"
    path = tmp_path / "position"
    path.write_text(text, encoding="utf-8")
    code, printed = cli_json("aros", path)
    answer = client.post("/api/aros", json={"position": text})
    assert (answer.status_code, code) == (400, 2)
    error = answer.json()["error"]
    assert error == {**printed["error"], "file": "position"}
    assert (error["kind"], error["line"], error["column"]) == ("notation", 4, 19)
    assert "Traceback" not in answer.text


def test_a_game_without_odds_says_so_with_status_400(client):
    text = (ROOT / "examples" / "urban-war-overwatch.pos").read_text(encoding="utf-8")
    answer = client.post("/api/odds", json={"position": text})
    assert answer.status_code == 400
    assert "does not cover Urban War" in answer.json()["error"]["message"]


@pytest.mark.parametrize("body, told", [
    (b"not json", "not JSON"),
    (b'{"text": "edition n5"}', "names no position"),
    (b'["edition n5"]', "names no position"),
    (b'{"position": 5}', "names no position"),
    (b'{"position": "\\ud800"}', "not Unicode"),
])
def test_a_body_that_is_not_a_position_is_an_error_400(client, body, told):
    answer = client.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"]["kind"] == "request" and told in answer.json()["error"]["message"]


def test_a_position_over_the_size_limit_is_refused_unread(client):
    text = "edition n5\n" + "# filler\n" * (guard.MAX_BODY_BYTES // 9)
    answer = client.post("/api/aros", json={"position": text})
    assert answer.status_code == 413
    assert str(guard.MAX_BODY_BYTES) in answer.json()["error"]["message"]


def test_a_request_names_no_file(client):
    """A position is text: a file name in it is notation, never opened."""
    answer = client.post("/api/aros", json={"position": str(ROOT / "examples" / "hellcat.pos")})
    assert answer.status_code == 400 and answer.json()["error"]["line"] == 1
    for path in ("/static/../pyproject.toml", "/static/%2e%2e/app.py", "/api/rules/..%2F..%2Fetc"):
        found = client.get(path)
        assert found.status_code in (400, 404) and "[project]" not in found.text and "Starlette" not in found.text


def test_every_answer_carries_a_content_security_policy(client):
    for answer in (client.get("/"), client.post("/api/aros", json={"position": "x"}), client.get("/nowhere"),
                   client.get("/static/ruling.js")):
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "default-src 'none'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_failure_inside_the_server_shows_no_stack(client, monkeypatch):
    def broken(command: str, text: str):
        raise KeyError("a secret")

    monkeypatch.setattr(web_app.judging, "judge", broken)
    answer = client.post("/api/aros", json={"position": "edition n5\n"})
    assert answer.status_code == 500
    assert answer.json()["error"]["kind"] == "internal"
    assert "Traceback" not in answer.text and "a secret" not in answer.text
    assert "script-src 'self'" in answer.headers["content-security-policy"]


def test_a_request_for_another_host_name_is_refused():
    with TestClient(web_app.create_app(warm=False), base_url="http://rebound.example") as other:
        assert other.get("/").status_code == 400


def test_an_unknown_command_is_404(client):
    answer = client.post("/api/verify", json={"position": "edition n5\n"})
    assert answer.status_code == 404 and "aros" in answer.json()["error"]["message"]


def test_the_page_offers_every_bundled_example_of_both_games(client):
    page = client.get("/")
    assert page.status_code == 200
    names = {e.name for e in bundled()}
    assert names == {p.stem for p in (ROOT / "examples").glob("*.pos")}
    assert {e.game for e in bundled()} == {"Infinity", "Urban War"}
    for name in names:
        assert f'value="{name}"' in page.text
    listed = client.get("/api/examples").json()["examples"]
    assert [e["name"] for e in listed] == [e.name for e in bundled()]
    assert all(e["text"] == (ROOT / "examples" / f"{e['name']}.pos").read_text(encoding="utf-8") for e in listed)


def test_the_rules_api_and_page_give_the_rule_text_source_and_citation(client):
    answer = client.get("/api/rules/aro_trigger", params={"edition": "n3"})
    rules = answer.json()["rules"]
    assert [r["edition"] for r in rules] == ["n3"] and rules[0]["cited_at"]["file"].endswith("rules.lp")
    page = client.get("/rules/aro_trigger", params={"edition": "n3"})
    assert page.status_code == 200 and rules[0]["text"] in page.text.replace("&#39;", "'")
    assert rules[0]["source"] in page.text
    missing = client.get("/api/rules/aro_trigerr")
    assert missing.status_code == 400 and "aro_trigger" in missing.json()["error"]["message"]
    assert client.get("/rules/aro_trigerr").status_code == 404
    assert client.get("/api/rules/aro_trigger", params={"edition": "n9"}).status_code == 400


def test_the_catalogue_api_and_page_give_an_entry(client):
    entry = client.get("/api/catalogue/n5/weapons/Combi Rifle").json()
    assert entry["entry"]["id"] == "combi_rifle"
    assert client.get("/api/catalogue/n5").json()["kinds"]
    page = client.get("/catalogue/n5/skills/Mimetism")  # a special skill, found under its own kind
    assert page.status_code == 200 and "Mimetism" in page.text and "special skills" in page.text
    assert client.get("/catalogue/n5/weapons/Nothing At All").status_code == 404
    assert client.get("/api/catalogue/urban-war").status_code == 400


def test_the_picture_is_the_games_drawing_or_none(client):
    for example in bundled():
        answer = client.post("/api/picture", json={"position": example.text})
        assert answer.status_code == 200
        from checker import games

        assert answer.json() == {"svg": games.for_text(example.text).picture(example.text, "position")}


def test_the_package_data_lists_the_page_files():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    web = Path(web_app.__file__).parent
    listed = {p for pattern in data["package-data"]["checker.web"] for p in web.glob(pattern)}
    assert listed == {p for p in web.rglob("*") if p.is_file() and p.suffix in (".html", ".css", ".js")}
    assert "checker.web" in data["packages"] and "checker.examples" in data["packages"]


def test_ruling_serve_prints_an_address_that_judges_an_example():
    """``ruling serve --port 0`` as a user starts it: the address it prints answers the
    page and judges a bundled example of each game."""
    import re
    import urllib.request

    server = subprocess.Popen([sys.executable, "-m", "checker", "serve", "--port", "0"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.fullmatch(r"ruling: judging positions at (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops\)\n", line)
        assert found, line + (server.stderr.read() if server.stderr and server.poll() is not None else "")
        address = found.group(1)
        with urllib.request.urlopen(address, timeout=30) as page:
            assert page.status == 200 and "hellcat" in page.read().decode()
        for name, command in (("hellcat", "aros"), ("urban-war-overwatch", "check")):
            text = (ROOT / "examples" / f"{name}.pos").read_text(encoding="utf-8")
            sent = urllib.request.Request(address + f"api/{command}", data=json.dumps({"position": text}).encode(),
                                          headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(sent, timeout=60) as answer:
                assert answer.status == 200 and json.loads(answer.read()) == cli_json(command, ROOT / "examples" / f"{name}.pos")[1]
    finally:
        server.terminate()
        server.wait(10)
