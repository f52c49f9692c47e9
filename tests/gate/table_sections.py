"""One section of resources/programs.toml, read for the tests of the programs it describes.

Sections begin with a marker line `# ---- <name> ----` and end where the next one begins (or at the end of the
file): new sections are appended, so a section's tests read only their own.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import ClassVar

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, Decision, action_from_dict

GATE = SafetyGate(default_policy())


@functools.cache
def _table() -> str:
    return resources.files("resources").joinpath("programs.toml").read_text(encoding="utf-8")


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


def section(marker: str) -> dict:
    """The TOML of the section that begins with `marker`, up to the next marker line."""
    text = _table()
    start = text.index(marker)
    end = text.find("\n# ---- ", start + len(marker))
    return tomllib.loads(text[start : end if end != -1 else len(text)])


def marked_once(marker: str) -> bool:
    return _table().count(marker) == 1


def uses(marker: str, use: dict[str, str]) -> list[str]:
    """An ordinary use of every program of the section, by the pattern `use` gives its group (`"{p} --help"`)."""
    return sorted(use[name].format(p=p) for name, spec in section(marker)["groups"].items() for p in spec["programs"])


def examples(marker: str) -> list[str]:
    """The example of every [[function]] of the section."""
    return sorted({spec["example"] for spec in section(marker).get("function", [])})


def programs_outside(marker: str) -> list[list[str]]:
    """The program lists of the section's functions that name a program its groups do not describe."""
    block = section(marker)
    named = {p for spec in block["groups"].values() for p in spec["programs"]}
    return [spec["program"] for spec in block.get("function", []) if not set(spec["program"]) <= named]


class SectionChecks:
    """The checks every section gets, for a test class that names its section (`MARKER`), an ordinary use of
    each of its groups' programs (`USE`, by group: `"{p} --help"`) and how many programs it describes at least
    (`AT_LEAST`): every program has an ordinary use that passes, judged by what its group says it does, and the
    example of every [[function]] still asks or blocks."""

    MARKER: ClassVar[str]
    USE: ClassVar[dict[str, str]]
    AT_LEAST: ClassVar[int]
    # a section whose [[function]] entries may also name programs other sections describe
    FOREIGN_FUNCTIONS: ClassVar[bool] = False

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "ordinary" in metafunc.fixturenames:
            metafunc.parametrize("ordinary", uses(self.MARKER, self.USE))
        if "risky" in metafunc.fixturenames:
            metafunc.parametrize("risky", examples(self.MARKER))

    def test_the_section_names_many_programs(self) -> None:
        assert len(uses(self.MARKER, self.USE)) >= self.AT_LEAST
        assert set(section(self.MARKER)["groups"]) == set(self.USE)

    def test_the_section_is_marked_once(self) -> None:
        assert marked_once(self.MARKER)

    def test_every_function_names_programs_of_the_section(self) -> None:
        assert self.FOREIGN_FUNCTIONS or programs_outside(self.MARKER) == []

    def test_ordinary_use_passes(self, ordinary: str) -> None:
        got = shell(ordinary)
        assert got.decision == Decision.ALLOW, (ordinary, got.rules)

    def test_risky_use_asks(self, risky: str) -> None:
        got = shell(risky)
        assert got.decision != Decision.ALLOW, (risky, got.rules)
