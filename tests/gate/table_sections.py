"""One section of resources/programs.toml, read for the tests of the programs it describes.

Sections begin with a marker line `# ---- <name> ----` and end where the next one begins (or at the end of the
file): new sections are appended, so a section's tests read only their own.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources


@functools.cache
def _table() -> str:
    return resources.files("resources").joinpath("programs.toml").read_text(encoding="utf-8")


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
