"""Every rule of each edition is pinned by at least one case of that edition."""

from __future__ import annotations

import re

import pytest

from checker.resources import asp_dir, editions

from .conftest import ROOT


@pytest.mark.parametrize("edition", editions())
def test_every_cited_rule_is_named_by_a_case(edition):
    rules = set(re.findall(rf"^rule\(([a-z_]+), {edition},", (asp_dir() / edition / "rules.lp").read_text(encoding="utf-8"), re.M))
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "cases" / edition).rglob("*.toml"))
    named = {r for r in rules if re.search(rf"\b{r}\b", text)}
    assert sorted(rules - named) == []
