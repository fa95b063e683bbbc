"""The page of ``ruling serve`` in a real browser: the system's chromium, headless, driven
by Playwright (no browser download). Each step's screenshot is kept under
``build/browser/`` (``RULING_SCREENSHOTS`` names another folder).

Without chromium or Playwright the tests are skipped with the reason; with
``RULING_WEB_REQUIRED=1`` (``.ci/run``) they fail instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_support import chromium, need_modules

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("RULING_SCREENSHOTS") or ROOT / "build" / "browser")
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """The page's address: the server on a free port of 127.0.0.1, in a thread of this process."""
    need_modules("starlette", "uvicorn", "jinja2", "playwright")
    chromium()  # no server for a browser that is not there
    import uvicorn

    from checker.web.app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser(address):
    executable = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True,
                                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser, address, request):
    """A page of the server at a laptop's size; every console error fails the test but
    the browser's note of an answer with status 400 (a position's error, shown on the page)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=address)
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    told_400 = "Failed to load resource: the server responded with a status of 400"
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" and not m.text.startswith(told_400)
              else None)
    opened.on("pageerror", lambda e: errors.append(str(e)))
    yield opened
    context.close()
    assert errors == [], f"console errors (a Content-Security-Policy violation shows here): {errors}"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def settled(page) -> str:
    """The state of the latest request once answered: answer, error or refused (the
    page's script sets ``data-state`` on ``#status``; waiting runs no script in the page,
    whose Content-Security-Policy forbids evaluating one)."""
    page.wait_for_selector("#status:not([data-state='busy'])")
    return page.get_attribute("#status", "data-state")


def pick(page, example: str) -> str:
    page.select_option("#example", example)
    return settled(page)


def test_an_example_shows_its_aros_a_typo_its_line_and_a_rule_its_text(page, tmp_path):
    page.goto("/")
    shot(page, "01-page")
    assert pick(page, "hellcat") == "answer"
    assert page.locator("#status").inner_text().startswith("Infinity N3")
    reactive = page.locator("#part-reactive")
    for trooper in ("fus1", "fus2", "fus3"):
        assert reactive.locator("h4", has_text=trooper).count() == 1
    legal = reactive.locator("tr.status-legal")
    assert legal.count() > 0 and "Dodge" in reactive.inner_text()
    assert page.locator("#caution-not_modelled").is_visible()
    shot(page, "02-aros")

    text = page.input_value("#position")
    lines = text.split("\n")
    typo_line = next(k for k, line in enumerate(lines, 1) if line.startswith("lof hellcat"))
    lines[typo_line - 1] = lines[typo_line - 1].replace("lof", "lfo")
    typo = "\n".join(lines)
    page.fill("#position", typo)
    page.wait_for_selector("#status[data-state='error']")
    assert page.get_attribute("#error", "data-line") == str(typo_line)
    assert page.get_attribute(f"#gutter [data-line='{typo_line}']", "class") == "bad"
    (tmp_path / "position").write_text(typo, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "checker", "aros", "position"], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert page.locator("#error pre").inner_text() == run.stderr.rstrip("\n")
    shot(page, "03-typo")

    page.fill("#position", text)
    page.wait_for_selector("#status[data-state='answer']")
    assert page.locator("#error").is_hidden()
    link = page.locator("#verdict a.rule").first
    rule_id = link.inner_text().strip("[]")
    with page.context.expect_page() as opened:
        link.click()
    rule = opened.value
    rule.wait_for_load_state()
    assert rule.locator("h1").inner_text() == f"Rule {rule_id}"
    assert rule.locator(".rule-text").first.inner_text().strip()
    assert "source" in rule.locator("dl").first.inner_text()
    shot(rule, "04-rule")


def test_the_odds_view_is_a_table_of_chances(page):
    page.goto("/")
    page.click("#tab-odds")
    assert pick(page, "odds") == "answer"
    summary = page.locator("#part-summary table")
    assert summary.count() == 1
    headers = summary.locator("th").all_inner_texts()
    assert {"active down", "reactor down", "nothing"} <= {h.lower() for h in headers}
    assert summary.locator("td .chance").first.inner_text().endswith("%")
    assert page.locator("#part-options > details.more").count() == 1  # each option's rolls, folded
    shot(page, "05-odds")


def test_both_games_examples_are_judged_without_typing(page):
    """Every bundled example, in every view: an answer or the game's own refusal
    (Urban War has no odds), never a notation error; the picture where the game draws one."""
    from checker import games
    from checker.web.examples import bundled

    page.goto("/")
    for tab in ("aros", "declarations", "check", "odds"):
        page.click(f"#tab-{tab}")
        for example in bundled():
            page.select_option("#example", "")  # so that picking the example again judges it
            state = pick(page, example.name)
            status = page.inner_text("#status")
            if tab == "odds" and example.game == "Urban War":
                assert (state, "does not cover Urban War" in status) == ("refused", True)
                continue
            assert state == "answer", f"{example.name} ({tab}): {status} {page.inner_text('#error')}"
            assert status.startswith(example.game), f"{example.name} ({tab}): {status}"
            drawn = games.for_text(example.text).picture(example.text, "position") is not None
            assert page.locator("#picture").is_visible() == drawn, example.name
    page.click("#tab-check")
    assert pick(page, "urban-war-overwatch") == "answer"
    assert page.inner_text("#status") == "Urban War: LEGAL"
    assert page.locator("#part-reactions tr.status-legal").count() == 1
    shot(page, "06-urban-war")


# A stand-in drawing, for the page's part alone: the games' own drawings are checked
# by test_both_games_examples_are_judged_without_typing (shown where a game draws one).
SQUARE = ('<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 24 24">'
          '<rect width="24" height="24" fill="#eee"/><circle cx="6" cy="6" r="2" fill="#c00"/>'
          '<text x="9" y="7" font-size="3">hellcat</text></svg>')


def test_a_picture_is_shown_beside_the_verdict_as_an_image(page, monkeypatch):
    from checker import games

    infinity = games.named(None)
    monkeypatch.setattr(type(infinity), "picture", lambda self, text, file: SQUARE)
    page.goto("/")
    assert pick(page, "hellcat") == "answer"
    image = page.locator("#picture img")
    assert page.locator("#picture").is_visible()
    assert image.evaluate("i => i.complete && i.naturalWidth") == 240
    shot(page, "08-picture")
    monkeypatch.undo()
    page.select_option("#example", "n5-doctor")
    settled(page)
    assert page.locator("#picture").is_hidden()


def test_a_phone_sized_screen_shows_the_page_without_sideways_scrolling(browser, address):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, base_url=address)
    phone = context.new_page()
    phone.set_default_timeout(WAIT_MS)
    phone.goto("/")
    pick(phone, "urban-war-declarations")
    width = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide on a {width[1]} px screen"
    editor = phone.locator("#position").bounding_box()
    assert editor is not None and editor["width"] > 250
    shot(phone, "07-phone")
    context.close()
