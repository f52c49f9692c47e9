"""The generated policy reference: complete, faithful to the sources, and never stale in the repo."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from app.cli.extra import _toml_entries, policy_reference
from app.cli.main import main
from gate.rules import CATALOGUE
from gate.rules import plan as plan_rules

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "policy-reference.md"
POLICY_TOML = ROOT / "resources" / "policy.toml"


def _leaves(doc: dict, prefix: str = "") -> dict[str, object]:
    """Dotted key → value; a table that is an inline value (`modes = {}`) counts as one key."""
    out: dict[str, object] = {}
    text = POLICY_TOML.read_text()
    for key, value in doc.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and re.search(rf"^\[{re.escape(name)}[.\]]", text, re.MULTILINE):
            out.update(_leaves(value, name + "."))
        else:
            out[name] = value
    return out


def test_committed_reference_is_current() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == policy_reference(), (
        "docs/policy-reference.md is stale: regenerate it with "
        "`.venv/bin/python -m app.cli.main docs policy-reference > docs/policy-reference.md`")


def test_cli_prints_the_reference(capsys) -> None:
    assert main(["docs", "policy-reference"]) == 0
    assert capsys.readouterr().out == policy_reference()


def test_every_rule_is_documented_with_its_fields() -> None:
    text = policy_reference()
    for r in (*CATALOGUE, *plan_rules.RULES):
        section = text.split(f"\n### {r.id}\n", 1)
        assert len(section) == 2, r.id
        body = section[1].split("\n### ", 1)[0]
        assert f"**{r.decision.value}** · risk **{r.risk.label}**" in body
        assert r.title in body
        first_doc_line = r.doc.splitlines()[0].strip()
        assert first_doc_line in body, r.id
        assert f"[`{r.id}`]" in text  # and in the summary table


def test_every_policy_key_is_documented_with_its_default() -> None:
    doc = tomllib.loads(POLICY_TOML.read_text(encoding="utf-8"))
    leaves = _leaves(doc)
    entries = {f"{t}.{k}" if t else k: (comments, value) for t, k, comments, value in
               _toml_entries(POLICY_TOML.read_text(encoding="utf-8"))}
    assert set(entries) == set(leaves)
    text = policy_reference()
    for name, (_, raw) in entries.items():
        # the value shown is the value as written, and it parses to the shipped default
        assert tomllib.loads(f"x = {raw}")["x"] == leaves[name], name
        assert f"#### `{name}`" in text
        assert raw in text


def test_comments_above_a_key_are_its_description() -> None:
    entries = {(t, k): c for t, k, c, _ in _toml_entries(POLICY_TOML.read_text(encoding="utf-8"))}
    assert any("no rule has anything to say" in c for c in entries[("gate", "default_mode")])
    text = policy_reference()
    section = text.split("#### `gate.default_mode`", 1)[1].split("####", 1)[0]
    assert "no rule has anything to say" in section and '`"allow"`' in section


def test_toml_entries_spans_multiline_values_and_drops_detached_comments() -> None:
    src = ('# file header\n\n[t]\n# about a\na = [\n  "x", # inline\n  "y]",\n]\n\n# detached\n\nb = 1\n'
           '[u.v]\n# about c\nc = { k = "v" }\n')
    got = _toml_entries(src)
    assert got == [("t", "a", ["about a"], '[\n  "x", # inline\n  "y]",\n]'), ("t", "b", [], "1"),
                   ("u.v", "c", ["about c"], '{ k = "v" }')]
