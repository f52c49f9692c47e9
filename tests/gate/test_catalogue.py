"""Catalogue functions (resources/programs.toml [[function]]): every one has a triggering example that the
gate judges as the function says, every catalogue class maps to an effect, and ordinary uses pass."""

from __future__ import annotations

import shlex

import pytest

from gate import SafetyGate, default_policy
from gate.catalogue import CLASSES, FUNCTIONS, RULE_FOR, functions_for, matching, may_trigger, windows
from gate.effects import ALIASES, EFFECTS, describe, program_effects
from gate.model import Decision, action_from_dict
from gate.rules import BY_ID
from gate.shell import analyse

GATE = SafetyGate(default_policy())

# the function classes the public catalogues use (GTFOBins functions, LOLBAS categories, LOOBins tactics)
CATALOGUE_CLASSES = {
    "gtfobins": ["shell", "command", "reverse-shell", "non-interactive-reverse-shell", "bind-shell",
                 "non-interactive-bind-shell", "file-upload", "file-download", "file-write", "file-read",
                 "library-load", "suid", "sudo", "capabilities", "limited-suid", "upload", "download",
                 "privilege-escalation", "inherit"],
    "lolbas": ["execute", "download", "upload", "copy", "encode", "decode", "compile", "ads", "awl-bypass",
               "uac-bypass", "credentials", "dump", "reconnaissance", "conceal", "tamper"],
    "loobins": ["execution", "persistence", "privilege-escalation", "defense-evasion", "credential-access",
                "discovery", "lateral-movement", "collection", "command-and-control", "exfiltration", "impact",
                "initial-access", "reconnaissance", "resource-development"],
}


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


def test_every_catalogue_class_maps_to_an_effect() -> None:
    for catalogue, classes in CATALOGUE_CLASSES.items():
        for cls in classes:
            assert CLASSES.get(f"{catalogue}:{cls}") in EFFECTS, f"{catalogue}:{cls}"


def test_every_function_is_filed_under_a_rule_of_the_catalogue() -> None:
    for fn in FUNCTIONS:
        assert fn.rule in BY_ID, fn
        assert fn.effect in EFFECTS, fn
    assert all(r in BY_ID for r in RULE_FOR.values())


def test_a_program_with_functions_but_no_table_entry_still_asks() -> None:
    # programs only the catalogue names (extrac32, makecab, ...) stay unknown: a use no function covers asks
    for fn in FUNCTIONS:
        for name in fn.programs:
            if program_effects(name) is None and name.isalnum() and name not in ALIASES:  # (an alias is its program)
                got = assess(f"{name} --some-use")
                assert got.decision is not Decision.ALLOW, (name, got.rules)


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f"{f.programs[0]}:{f.cls}:{f.why[:30]}")
def test_every_function_example_is_judged_as_the_function_says(fn) -> None:
    got = assess(fn.example)
    assert fn.rule in got.rules, (fn.example, got.rules)
    wanted = (Decision.BLOCK,) if fn.decision == "block" else (Decision.CONFIRM, Decision.BLOCK)
    assert got.decision in wanted, (fn.example, got.decision, got.rules)


# ordinary uses of the same programs: discovery and status verbs pass
NEAR_MISSES = [
    "osascript -e 'display notification \"Build finished\" with title \"make\"'",
    "dscl . -read /Users/alice RealName", "dscl . -list /Users", "security list-keychains",
    "security find-certificate -a -c Apple",
    "chflags nohidden ~/Library", "launchctl list", "tccutil --help",
    "spctl --status", "spctl --assess -v X.app", "csrutil status", "defaults read com.apple.dock",
    "defaults write com.apple.dock autohide -bool true", "profiles list", "systemsetup -gettimezone", "pmset -g",
    "networksetup -listallhardwareports", "scutil --dns", "nvram -p", "hdiutil info", "xattr -l file.txt",
    "log show --last 1h", "tmutil listbackups", "mdfind -name report.pdf", "plutil -lint Info.plist",
    "softwareupdate --list", "fdesetup status", "sw_vers", "system_profiler SPHardwareDataType", "open README.md",
    "ditto src build/src", "kextstat", "sqlite3 app.db 'select count(*) from users'",
    "codesign -dv X.app", "say done", "pfctl -s rules", "open -a Safari https://example.org",
    "open /Applications/Calculator.app", "net use", "reg query HKCU\\Software\\App", "certutil -hashfile a.exe SHA256",
    "wmic cpu get name", "dotnet build", "explorer.exe .", "msiexec /?",
    "curl -sSf https://example.org", "mysql -u me -e 'select 1'", "rsync -av src/ dst/", "scp host.example:a.txt .",
    "zip -r out.zip src", "getent passwd me", "install -m 0755 tool build/bin/", "whois example.org",
    "python3 -m http.server 8000 --bind 127.0.0.1", "gpg --symmetric notes.txt",
    "npm config get registry", "pip config list", "xdg-open https://example.org/docs", "open index.html",
    "chromium --headless --remote-debugging-port=9222 --user-data-dir=/tmp/e2e-profile http://localhost:3000",
    "msedge --headless --print-to-pdf=out.pdf https://example.org",
]


@pytest.mark.parametrize("command", NEAR_MISSES)
def test_ordinary_uses_pass(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.ALLOW, (command, got.rules)


def test_explain_names_the_catalogue_function() -> None:
    rows = describe(analyse("security dump-keychain -d"))
    assert any("catalogue loobins:credential-access" in e for _, effects in rows for e in effects)


def test_functions_are_looked_up_by_program() -> None:
    assert functions_for("csrutil") and not functions_for("ls")


def _arguments_of_programs_with_several_functions() -> list[tuple[str, str]]:
    """(program, arguments) for every program with more than one function: each function's example and each
    near miss of that program, as the catalogue judge joins them."""
    out = []
    for command in [fn.example for fn in FUNCTIONS] + NEAR_MISSES:
        name, _, args = command.partition(" ")
        for fn in FUNCTIONS:
            if fn.example == command or name in fn.programs:
                for program in fn.programs if fn.example == command else (name,):
                    if len(functions_for(program)) > 1:
                        out.append((program, args))
    return sorted(set(out))


@pytest.mark.parametrize(("program", "args"), _arguments_of_programs_with_several_functions())
def test_the_one_search_prefilter_never_hides_a_function(program: str, args: str) -> None:
    """`may_trigger` (one search of a program's joined patterns) is False only when no function is triggered."""
    found = [f for f in functions_for(program) if any(f.hit(a) for a in windows(args))]
    assert matching(program, args) == found
    if found:
        assert may_trigger(program, windows(args))


def test_the_prefilter_skips_an_ordinary_use() -> None:
    assert len(functions_for("security")) > 1
    assert may_trigger("security", windows("dump-keychain -d"))
    assert not may_trigger("security", windows("help"))
    # (`list-keychains` holds a string a function needs, so they are tried: each by its own strings, then pattern)
    assert not any(f.hit("list-keychains") for f in functions_for("security"))


def _per_program() -> list[tuple[str, object]]:
    """(command, function) for every program a function names: its example with that program's name."""
    out = []
    for fn in FUNCTIONS:
        first, _, rest = fn.example.partition(" ")
        for name in fn.programs:
            # (an app bundle's program, "google chrome", is written quoted, as a shell line names it)
            out.append((f"{shlex.quote(name)} {rest}".strip(), fn))
    return out


@pytest.mark.parametrize(("command", "fn"), _per_program(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_program_a_function_names_is_tested(command: str, fn) -> None:
    got = assess(command)
    assert got.decision in ((Decision.BLOCK,) if fn.decision == "block" else (Decision.CONFIRM, Decision.BLOCK)), \
        (command, got.rules)


def _table_programs() -> list[str]:
    from gate.effects import _TABLE
    return sorted(n for n in _TABLE.effects if n not in ("[", "[["))  # test syntax, not a program word


def test_every_program_in_the_table_is_described_and_never_unknown() -> None:
    # one test over the whole table (1,600+ names): each is known, with its effects shown by explain
    unknown = []
    for name in _table_programs():
        got = assess(f"{name} --version")
        rows = describe(analyse(f"{name} --version"))
        if "confirm.shell.unknown-program" in got.rules or not rows or not rows[0][1]:
            unknown.append(name)
    assert not unknown, unknown[:20]
