"""The short ways of the cold path (gate/shell.py, gate/effects.py, gate/rules/shell_effects.py): each skips work
only where the long way finds nothing, so each is checked against the long way here."""

from __future__ import annotations

import posixpath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate import SafetyGate, action_from_dict
from gate.digits import digit_count, has_digit
from gate.effects import DESCRIBED_OFFLINE, DESCRIBED_PLAIN, unknown_effect
from gate.nochange import _PARTS, READ_VERBS, _secret_word
from gate.rules import shell as shell_rules
from gate.rules import shell_delivery, shell_harvest, shell_notices, shell_personal, shell_ransom
from gate.rules.shell_dataout import CLIPBOARD_CUES
from gate.rules.shell_effects import _WRITES_NOTHING_TO_RUN, written_then_run
from gate.rules.shell_staging import _ANY_PURPOSE, _PURPOSE_KINDS
from gate.shell import HOME, _analyse_text, _basename, analyse, resolve_path

# arguments that make some programs run code (a code flag, an option value, a `+` command): none of them may
# make a plainly described program unknown
GATE = SafetyGate()
_RISKY_ARGS = ("-c", "id", "-e", "--eval=x", "--exec", "+!sh", "-oProxyCommand=sh", "--checkpoint-action=exec=sh",
               "-x", "system(\"id\")")


def test_a_plainly_described_program_is_never_unknown_whatever_its_arguments() -> None:
    for name in sorted(DESCRIBED_PLAIN):
        assert unknown_effect((name, *_RISKY_ARGS), name) is None, name
    # and a program with a code flag is not plain (near miss)
    assert "vim" not in DESCRIBED_PLAIN and unknown_effect(("vim", "-c", ":!sh"), "vim") is not None


def test_an_offline_program_run_alone_records_nothing_to_run_later() -> None:
    checked = 0
    for name in sorted(_WRITES_NOTHING_TO_RUN):
        analysis = analyse(f"{name} a ./b -o c")
        if len(analysis.commands) != 1 or analysis.commands[0].name != name:
            continue  # a name the parse reads another way (a wrapper, a keyword, test syntax)
        written: dict[str, str] = {}
        found: list = []
        written_then_run(analysis.commands[0], analysis, "", found.append, written)
        assert not written and not found, name
        checked += 1
    assert checked > 100
    assert _WRITES_NOTHING_TO_RUN <= DESCRIBED_OFFLINE
    # a downloader is left out (near miss): `curl -o x.sh URL` records x.sh
    assert "curl" not in _WRITES_NOTHING_TO_RUN


def test_the_writers_written_then_run_names_are_not_on_the_short_way() -> None:
    for name in ("cp", "mv", "install", "ln", "tee", "dd", "certutil", "bitsadmin", "wget", "curl"):
        assert name not in _WRITES_NOTHING_TO_RUN, name


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="/.~ab-", min_size=1, max_size=16), st.sampled_from([None, "/srv/x", "/srv/x/", "/"]))
def test_resolve_path_is_normpath_of_the_built_path(word: str, cwd: str | None) -> None:
    """The short ways of resolve_path (a path already normal is returned as built) agree with normpath."""
    got = resolve_path(word, cwd)
    if word == "~" or word.startswith("~/"):
        built = HOME + word[1:]
    elif word.startswith("~"):
        built = "/home/" + word[1:]
    elif word.startswith("/"):
        built = word
    elif cwd:
        built = cwd.rstrip("/") + "/" + word
    else:
        assert got is None
        return
    out = posixpath.normpath(built)
    if out.startswith("//"):
        out = "/" + out.lstrip("/")
    expected = out + "/" if built.endswith("/") and len(built) > 1 and out != "/" else out
    assert got == expected, (word, cwd)


def test_hidden_names_resolve_as_written() -> None:
    assert resolve_path("~/.bash_history") == "/home/~/.bash_history"
    assert resolve_path("/srv/..x/.y") == "/srv/..x/.y"
    assert resolve_path("~/x/../.ssh/") == "/home/~/.ssh/"  # (near miss: a `..` part is resolved)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abcXYZ019./_-:@%+,=~^", min_size=1, max_size=8), min_size=1, max_size=4))
def test_a_plain_command_is_named_as_the_walker_names_it(words: list[str]) -> None:
    command = " ".join(words)
    analysis = _analyse_text(command, None)
    if len(analysis.commands) == 1 and not analysis.features:
        assert analysis.commands[0].name == _basename(analysis.commands[0].argv[0])


# the line families' cue lists, all looked for in one pass by the shell detector (gate/rules/shell.py `_LINE_CUES`)
_CUE_FAMILIES = {"clipboard": CLIPBOARD_CUES, "personal": shell_personal.CUES, "notices": shell_notices.WHOLE_CUES,
                 "ransom": shell_ransom.LINE_CUES, "delivery": shell_delivery.LINE_CUES, **shell_harvest.LINE_CUES}


def test_each_line_cue_is_found_by_its_family_search_however_the_line_writes_it() -> None:
    for family, cues in _CUE_FAMILIES.items():
        for cue in cues:
            for line in (cue, f"sudo env A=1 '{cue.upper()}' x", f"/usr/bin/{cue}", f'"{cue}"', f"a;{cue}|b"):
                assert family in shell_rules._LINE_CUES.present(line.lower()), (cue, line)
    # a line with none of them is not (near miss)
    assert not shell_rules._LINE_CUES.present("git status")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="cryptzigenoa .$(`/%0*-", max_size=24))
def test_a_family_search_agrees_with_its_cues_one_by_one(text: str) -> None:
    found = shell_rules._LINE_CUES.present(text)
    for family, cues in _CUE_FAMILIES.items():
        assert (family in found) == any(c in text for c in cues), (family, text)


@pytest.mark.parametrize(("command", "rule"), [
    ("sudo python3 /opt/Tools/HarvestTokens.py", "confirm.shell.credential-search"),
    ("env X=1 bash ./COOKIE_STEALER.sh", "confirm.shell.credential-search"),
    ("python3 'collect/gather-passwords.py'", "confirm.shell.credential-search"),
    ("./Exfiltrate.sh", "confirm.shell.network"),
    ("sudo bash /tmp/Disk-Wipe.sh", "confirm.shell.destructive"),
    ("node xmrig.js", "confirm.shell.system-disruption"),
    ("python3 Tools/Reverse_Shell.py", "confirm.shell.persistence"),
])
def test_a_script_named_for_its_purpose_is_seen_through_the_joined_search(command: str, rule: str) -> None:
    assert rule in GATE.assess(action_from_dict({"type": "shell", "command": command})).rules


def test_the_joined_purpose_search_finds_what_the_kinds_find() -> None:
    for words in ("harvest_tokens", "cookie_stealer", "exfil", "wiper", "crypto_miner", "backdoor", "build_report",
                  "test_keylogger", "steal_session_cookies", "collect_browser_passwords"):
        assert (_ANY_PURPOSE.search(words) is not None) == any(rx.search(words) for _, _, rx in _PURPOSE_KINDS), words


@pytest.mark.parametrize("command", [
    "sudo /usr/bin/pip config set global.index-url http://203.0.113.9/simple",
    'PIP=1 "PIP3" config set global.index-url http://203.0.113.9/simple',
    "cd x && npm config set registry http://198.51.100.7:4873/",
    "pip config set global.index-url http://２０３.0.113.9/simple",  # digits of another width: still digits
])
def test_a_software_source_at_a_bare_address_is_seen_whatever_runs_before_it(command: str) -> None:
    assert "block.shell.untrusted-source" in GATE.assess(action_from_dict({"type": "shell", "command": command})).rules
    # a named host is no bare address (near miss)
    named = GATE.assess(action_from_dict({"type": "shell",
                                          "command": "pip config set global.index-url http://pypi.example.org/x"}))
    assert "block.shell.untrusted-source" not in named.rules


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab.1²٣２x ", max_size=12))
def test_the_digit_tests_are_str_isdigit(text: str) -> None:
    assert has_digit(text) == any(ch.isdigit() for ch in text)
    assert digit_count(text) == sum(ch.isdigit() for ch in text)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=sorted(set("".join(READ_VERBS.secret_words)) | set("-_.:/=X")), max_size=24))
def test_a_secret_word_is_found_as_by_each_word(word: str) -> None:
    words = READ_VERBS.secret_words
    expected = any(p in words for p in _PARTS.split(word)) or any(len(s) >= 6 and s in word for s in words)
    assert _secret_word(word) == expected
    for s in words:  # and each word itself, alone and inside another
        assert _secret_word(f"list-{s}") and (len(s) < 6 or _secret_word(f"x{s}y")), s
