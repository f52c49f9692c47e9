"""Global options written before a client's sub-command, read after it (resources/cli_globals.toml).

    hoist("aws", ["aws", "--profile", "prod", "s3", "rm", "s3://b", "--recursive"], frozenset())
        -> (["aws", "s3", "rm", "s3://b", "--recursive", "--profile", "prod"], frozenset())

The rules name a client's sub-commands by position (`aws s3 rm`, `kubectl exec POD -- CMD`); a line that
starts with `--profile prod` or `--context prod` would hide them. The client reads these options in either
place, so moving them changes nothing it does. They go before a `--` (what follows it is another command's).
Pure: the table is read once at import.
"""

from __future__ import annotations

from importlib import resources

from gate import regex_store

__all__ = ["PROGRAMS", "hoist"]


class _Spec:
    __slots__ = ("equals", "flags", "valued")

    def __init__(self, entry: dict) -> None:
        self.valued = frozenset(entry.get("valued", ()))
        self.flags = frozenset(entry.get("flags", ()))
        self.equals = frozenset((*self.valued, *entry.get("equals", ())))


def _load() -> dict[str, _Spec]:
    # (through the store: a warm start parses no TOML, gate/regex_store.py)
    data = regex_store.toml(resources.files("resources").joinpath("cli_globals.toml").read_text(encoding="utf-8"))
    specs: dict[str, _Spec] = {}
    for name, entry in data.items():
        spec = _Spec(entry)
        for program in (name, *entry.get("aliases", ())):
            specs[program] = spec
    return specs


_SPECS = _load()
PROGRAMS = frozenset(_SPECS)


def hoist(name: str, argv: list[str], dynamic: frozenset[int]) -> tuple[list[str], frozenset[int]]:
    """`argv` with the leading global options of `name` moved after its sub-command, and `dynamic` (indices of
    words the gate cannot know) moved with them. Unchanged when nothing leads or an option is not known."""
    spec = _SPECS.get(name)
    if spec is None or len(argv) < 3 or not argv[1].startswith("-"):
        return argv, dynamic
    moved: list[int] = []
    k = 1
    while k < len(argv) and argv[k].startswith("-") and argv[k] != "--":
        word = argv[k]
        key, eq, _ = word.partition("=")
        if eq and key in spec.equals:
            moved.append(k)
            k += 1
        elif word in spec.valued and k + 1 < len(argv):
            moved += [k, k + 1]
            k += 2
        elif word in spec.flags:
            moved.append(k)
            k += 1
        else:
            return argv, dynamic  # an option this table does not know: judged as written
    if not moved or k >= len(argv):
        return argv, dynamic
    rest = list(range(k, len(argv)))
    cut = next((j for j, i in enumerate(rest) if argv[i] == "--"), len(rest))
    order = [0, *rest[:cut], *moved, *rest[cut:]]
    place = {old: new for new, old in enumerate(order)}
    return [argv[i] for i in order], frozenset(place[i] for i in dynamic)
