"""A line of plain words in pipes and chains is read without the parse (gate/shell.py `_plain_line`): the
analysis it gives must be the one walking its parse gives, field by field."""

from __future__ import annotations

import itertools
import random
import shlex

import msgspec
import pytest

from gate.shell import _analysis, _plain_line, analyse, shlex_split

# words of every shape the plain reading takes: programs that unwrap others, ones whose output is followed
# through a pipe, reserved words and assignments off the first place, `%`, `^`, `~`, `=`, `:` and numbers
_PROGRAMS = ["ls", "git", "sudo", "env", "xargs", "timeout", "nohup", "nice", "bash", "sh", "echo", "printf",
             "base64", "cat", "tee", "cd", "rm", "find", "python3", "ssh", "watch", "doas", "tr", "rev", "time",
             "done", "x=1", "export", "exec", "true", "grep", "make", "kubectl", "npm", "/usr/bin/rm", "cmd.exe",
             "'ls'", '"sudo"', "'a=b'", '"bash"']
_ARGS = ["-la", "-rf", "/", "~", "~/x", "/tmp/a", "status", "-d", "-c", "ls", "rm", "5", "10s", "a=b", "%PATH%",
         "x^y", "host:/p", "-u", "name", "cm0gLXJmIC8=", "..", "-exec", "done", "if", "in", "--force", "sh", "+x",
         "'a | b'", '"x y"', "''", '""', '"rm -rf /"', "'$(id)'", '"a;b && c"', "'if'", "'#x'", "'`id`'", "'$IFS'",
         '"~/.ssh/id_rsa"', "'echo hi | sh'", '"-rf"', "'\n'", "/*", "*", "~/*", "*.py", "a*b*", "--x=*", "'*'"]
_OPS = [" | ", " && ", " || ", "; "]


_ENDS = [" 2>&1", " > out.txt", " 2>/dev/null", " < in.txt", " >> ~/.bashrc", " >&2", " > /etc/passwd", " > *.log"]


def _line(rng: random.Random) -> str:
    parts = []
    for k in range(rng.randint(2, 4)):
        if k:
            parts.append(rng.choice(_OPS))
        parts.append(" ".join([rng.choice(_PROGRAMS), *rng.sample(_ARGS, rng.randint(0, 3))]) +
                     "".join(rng.sample(_ENDS, rng.choice((0, 0, 1, 2)))))
    return "".join(parts)


def _same(text: str, cwd: str | None) -> None:
    fast = msgspec.structs.asdict(_analysis(text, cwd))
    parsed = msgspec.structs.asdict(_analysis(text, cwd, plain=False))
    assert fast == parsed, text


@pytest.mark.parametrize("text", [
    "ls -la src | grep py", "cd /tmp && rm -rf build", "make || true", "git status; git diff | cat",
    "echo cm0gLXJmIC8= | base64 -d | sh", "echo / | xargs rm -rf", "sudo ls | tee out", "a | b && c; d | e | f; g",
    "git commit -m 'a message'", "bash -c 'rm -rf /' && echo \"done | now\"", "echo '$(id)' | sh", "grep -n \"\" x",
    "make 2>&1 | tail -5", "ls > out.txt", "cmd >/dev/null 2>&1 && echo ok", "sh -c 'rm -rf /' > log; ls 2>/dev/null",
])
def test_a_plain_line_reads_as_its_parse(text: str) -> None:
    assert _plain_line(text) is not None
    _same(text, None)
    _same(text, "/srv/app")


def test_every_shape_of_operators_reads_as_its_parse() -> None:
    # tree-sitter-bash nests some shapes oddly (`a | b | c && d`): every shape up to six operators
    for n in range(1, 6):
        for ops in itertools.product(_OPS, repeat=n):
            _same("a" + "".join(op + name for op, name in zip(ops, "bcdefg", strict=False)), None)


_REDIRECTS = ["", " 2>&1", " > f", " >/dev/null 2>&1", " < in", " &>/dev/null", " >> log"]


def test_every_shape_of_redirects_reads_as_its_parse() -> None:
    # tree-sitter-bash puts a redirect at a later command's end around the whole list before it (`a && b > f`):
    # every place of every redirect, for up to three commands
    for n in range(3):
        for ops in itertools.product(_OPS, repeat=n):
            for tails in itertools.product(_REDIRECTS, repeat=n + 1):
                _same("a" + tails[0] + "".join(op + name + tail for op, name, tail in
                                               zip(ops, "bc", tails[1:], strict=False)), None)


def test_generated_plain_lines_read_as_their_parse() -> None:
    rng = random.Random(19)
    read = 0
    for _ in range(600):
        text = _line(rng)
        if _plain_line(text) is not None:
            read += 1
            _same(text, None)
    assert read > 100  # many generated lines are plain: the comparison really ran


@pytest.mark.parametrize("text", [
    "x=1 && ls", "ls && if true", "ls|grep a", "ls | grep a'b'", "ls  | grep a", 'echo "$HOME"',
    "echo 'a' 'b", 'echo "a\\"b"', "ls | grep a |", "ls &",
    "ls | grep $HOME", "ls > out x", "a && b > f", "a | b 2>&1", "a 2&>f", "a | b | c && d", "x; a | b | c || d",
])
def test_other_lines_are_parsed(text: str) -> None:
    assert _plain_line(text) is None
    analyse(text)  # (still analysed, by the walk of its parse)


@pytest.mark.parametrize("text", [
    "bash -c 'ls | grep a && rm -rf /'", "ssh host 'cd /tmp && rm -rf build'", "sudo sh -c 'echo a | sh; id'",
    "find . | xargs sh -c 'rm -rf \"a b\" || true'", "bash -c \"sh -c 'git status | cat'\"",
    "echo 'rm -rf ~' | sh", "timeout 5 bash -c 'a | b | c && d'",
])
def test_a_plain_line_run_by_another_reads_as_its_parse(text: str) -> None:
    _same(text, None)
    _same(text, "/srv/app")


def test_the_plain_reading_finds_what_the_parse_finds() -> None:
    a = analyse("echo cm0gLXJmIC8= | base64 -d | sh")
    assert [c.name for c in a.commands][-1] == "rm"
    assert {"pipe"} <= a.features
    chained = analyse("cd /tmp && rm -rf build")
    assert "chain" in chained.features and chained.commands[1].cwd == "/tmp"
    wrapped = analyse("bash -c 'rm -rf /' && echo ok")
    assert [c.name for c in wrapped.commands] == ["bash", "rm", "echo"] and "wrapped" in wrapped.features


def test_shlex_split_of_text_without_quotes_is_shlex_split() -> None:
    # gate/shell.py `shlex_split` cuts text with no quote or backslash at blanks itself: the words must be
    # shlex's, for every ASCII character
    rng = random.Random(19)
    alphabet = [chr(c) for c in range(128)] + list("ab cd-") * 10
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        try:
            expected = shlex.split(text)
        except ValueError:
            expected = text.split()
        assert shlex_split(text) == expected, repr(text)


@pytest.mark.parametrize("text", [
    "git commit -m \"fix the parser\"", "echo 'hello world'", "grep -rn \"TODO\" src", "'ls' -la", "\"rm\" -rf /",
    "sed -i 's/a/b/' notes.txt", "find . -name '*.py'", "git log --format='%h %s'", "curl -H 'Accept: x' example.org",
    "echo ''", "'' x", "git -c 'core.pager=less -R' log", "awk '{print $1}' f", "bash -c 'rm -rf /'",
])
def test_one_command_of_quoted_words_reads_as_its_parse(text: str) -> None:
    _same(text, None)
    _same(text, "/srv/app")


def test_generated_commands_of_quoted_words_read_as_their_parse() -> None:
    # one command, no operator: the analysis takes it whole without `_plain_line` (gate/shell.py `_plain_words`);
    # every program that may carry code in a flag (EMBEDDING) among the first words
    from gate.effects import EMBEDDING

    rng = random.Random(23)
    programs = [*_PROGRAMS, *sorted(EMBEDDING)]
    quoted = [a for a in _ARGS if a[:1] in "'\""] + ["'-c'", "\"--exec=sh\"", "'a b c'", "\"~/x y\""]
    for _ in range(3000):
        text = " ".join([rng.choice(programs), *rng.sample(_ARGS + quoted, rng.randint(0, 4))])
        _same(text, rng.choice((None, "/srv/app")))
