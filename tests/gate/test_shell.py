"""gate/shell.py: parsing, unwrapping and de-obfuscation of shell commands."""

from __future__ import annotations

import base64
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.shell import analyse, parse_piece, resolve_path


def argvs(command: str) -> list[tuple[str, ...]]:
    return [c.argv for c in analyse(command).commands]


def names(command: str) -> list[str]:
    return [c.name for c in analyse(command).commands]


# -- structure ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["ls -la", "git status", "python3 tool.py --flag value", "make"])
def test_plain_commands_are_not_complex(command: str) -> None:
    a = analyse(command)
    assert not a.complex
    assert a.commands[0].argv == tuple(command.split())


@pytest.mark.parametrize(("command", "feature"), [
    ("ls | wc -l", "pipe"),
    ("make && make install", "chain"),
    ("make || true", "chain"),
    ("a; b", "chain"),
    ("sleep 5 &", "background"),
    ("(cd sub; make)", "subshell"),
    ("echo $(whoami)", "substitution"),
    ("echo `whoami`", "substitution"),
    ("diff <(ls a) <(ls b)", "process-substitution"),
    ("ls > out.txt", "redirect"),
    ("cat <<EOF\nhi\nEOF", "heredoc"),
    ("for f in *; do echo $f; done", "compound"),
    ("f() { echo hi; }", "function"),
])
def test_structure_makes_a_command_complex(command: str, feature: str) -> None:
    a = analyse(command)
    assert feature in a.features
    assert a.complex


def test_text_is_normalised_for_allow_globbing() -> None:
    assert analyse("  GIT   Status ").text == "git status"


@pytest.mark.parametrize("command", ["echo 'unterminated", "if then fi (", "ls )"])
def test_unparsable_is_complex(command: str) -> None:
    a = analyse(command)
    assert a.unparsable
    assert a.complex


def test_quoted_data_stays_data() -> None:
    assert argvs("echo 'rm -rf /'") == [("echo", "rm -rf /")]
    assert argvs('git commit -m "drop the table"') == [("git", "commit", "-m", "drop the table")]


# -- unwrapping --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    "sudo rm -rf x", "sudo -u root -E rm -rf x", "doas rm -rf x", "env A=1 B=2 rm -rf x", "env -i rm -rf x",
    "nohup rm -rf x", "timeout -s KILL 5 rm -rf x", "nice -n 5 rm -rf x", "command rm -rf x", "exec rm -rf x",
    "builtin rm -rf x", "busybox rm -rf x", "/usr/bin/env rm -rf x", "/bin/rm -rf x", "\\rm -rf x",
    "stdbuf -o0 rm -rf x", "ionice -c 3 rm -rf x",
])
def test_wrappers_are_unwrapped(command: str) -> None:
    a = analyse(command)
    inner = [c for c in a.commands if c.name == "rm"]
    assert inner and inner[0].argv[1:] == ("-rf", "x")


def test_sudo_marks_the_inner_command_privileged() -> None:
    rm = next(c for c in analyse("sudo rm -rf x").commands if c.name == "rm")
    assert rm.privileged and "sudo" in rm.via
    assert not analyse("rm -rf x").commands[0].privileged


@pytest.mark.parametrize("command", [
    "bash -c 'rm -rf x'", "sh -c \"rm -rf x\"", "zsh -c 'rm -rf x'", "bash -lc 'rm -rf x'",
    "eval 'rm -rf x'", "su -c 'rm -rf x' root", "ssh -p 22 host rm -rf x", "ssh host 'rm -rf x'",
    "python -c \"import os; os.system('rm -rf x')\"",
    "python3 -c 'import subprocess; subprocess.run([\"rm\", \"-rf\", \"x\"])'",
    "perl -e 'system(\"rm -rf x\")'", "ruby -e '`rm -rf x`'",
    "node -e \"require('child_process').execSync('rm -rf x')\"",
    "awk 'BEGIN { system(\"rm -rf x\") }'", "find . -exec rm -rf x \\;", "parallel rm -rf ::: x",
    "watch -n 5 rm -rf x", "cmd /c rm -rf x",
])
def test_nested_scripts_are_analysed(command: str) -> None:
    assert ("rm", "-rf", "x") in argvs(command)


def test_ssh_marks_remote() -> None:
    rm = next(c for c in analyse("ssh host rm -rf x").commands if c.name == "rm")
    assert rm.remote


def test_xargs_runs_its_command_with_the_words_it_reads() -> None:
    cmds = analyse("echo a b | xargs -n 1 rm -f").commands
    assert any(c.argv == ("rm", "-f", "a", "b") and c.found for c in cmds)


def test_python_rmtree_counts_as_recursive_delete() -> None:
    assert ("rm", "-rf", "/srv/data") in argvs("python -c \"import shutil; shutil.rmtree('/srv/data')\"")


def test_substitutions_are_analysed() -> None:
    assert ("rm", "-rf", "x") in argvs("echo $(rm -rf x)")
    assert ("rm", "-rf", "x") in argvs("echo `rm -rf x`")
    assert ("rm", "-rf", "x") in argvs('echo "result: $(rm -rf x)"')


def test_heredoc_to_a_shell_is_analysed() -> None:
    assert ("rm", "-rf", "x") in argvs("bash <<'EOF'\nrm -rf x\nEOF")
    assert ("rm", "-rf", "x") in argvs('sh <<< "rm -rf x"')


def test_cd_tracks_the_working_directory() -> None:
    cmds = analyse("cd /srv && rm -rf data").commands
    assert cmds[-1].cwd == "/srv"
    assert analyse("rm x", cwd="/opt").commands[0].cwd == "/opt"


def test_command_v_does_not_run_the_command() -> None:
    assert names("command -v rm") == ["command"]


# -- de-obfuscation ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    "$'\\x72\\x6d' -rf x", "$'\\162\\155' -rf x", 'r"m" -rf x', "'r'm -rf x", "r''m -rf x",
    "rm${IFS}-rf${IFS}x", "rm$IFS-rf$IFS'x'", "a=rm; $a -rf x", "$(printf 'rm') -rf x",
])
def test_obfuscated_spellings_are_decoded(command: str) -> None:
    a = analyse(command)
    assert ("rm", "-rf", "x") in [c.argv for c in a.commands]
    assert a.obfuscated


def test_plain_escape_is_not_obfuscation() -> None:
    a = analyse("\\rm -rf x")
    assert a.commands[0].argv == ("rm", "-rf", "x")
    assert not a.obfuscated


def test_unknown_variable_command_is_dynamic() -> None:
    a = analyse("$TOOL -rf x")
    assert 0 in a.commands[0].dynamic
    assert any(kind == "dynamic-command" for kind, _ in a.notes)


@pytest.mark.parametrize("decoder", ["base64 -d", "base64 --decode", "openssl base64 -d"])
def test_base64_into_a_shell_is_decoded_and_analysed(decoder: str) -> None:
    payload = base64.b64encode(b"rm -rf x").decode()
    a = analyse(f"echo {payload} | {decoder} | sh")
    assert ("rm", "-rf", "x") in [c.argv for c in a.commands]
    assert a.obfuscated


def test_a_decoded_substitution_as_the_command_is_split_into_its_words() -> None:
    # the shell splits an unquoted substitution's output into words, so the decoded text is the command line
    payload = base64.b64encode(b"rm -rf x").decode()
    assert ("rm", "-rf", "x") in argvs(f"$(echo {payload} | base64 -d)")
    assert ("rm", "-rf", "x") in argvs(f"`echo {payload} | base64 --decode`")
    # quoted, it stays one word
    assert ("echo", "rm -rf x") in argvs(f'echo "$(echo {payload} | base64 -d)"')


def test_hex_printf_and_rev_into_a_shell_are_decoded() -> None:
    assert ("rm", "-rf", "x") in argvs("printf '\\x72\\x6d -rf x' | bash")
    assert ("rm", "-rf", "x") in argvs("echo 'x fr- mr' | rev | sh")
    assert ("rm", "-rf", "x") in argvs("echo 726d202d72662078 | xxd -r -p | sh")


def test_base64_not_fed_to_a_shell_is_left_alone() -> None:
    payload = base64.b64encode(b"rm -rf x").decode()
    assert ("rm", "-rf", "x") not in argvs(f"echo {payload} | base64 -d > out.txt")


def test_homoglyphs_and_invisible_characters() -> None:
    # full-width letters and a zero-width space inside the command name
    assert analyse("ｒｍ -rf x").commands[0].name == "rm"
    assert analyse("r\u200bm -rf x").commands[0].name == "rm"


def test_home_variable_resolves_to_home() -> None:
    assert analyse("rm -rf $HOME").commands[0].argv[-1] == "~"
    assert analyse('rm -rf "${HOME}"').commands[0].argv[-1] == "~"


# -- paths -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("word", "cwd", "expected"), [
    ("/tmp/../etc", None, "/etc"),
    ("~", None, "/home/~"),
    ("~/..", None, "/home"),
    ("build", None, None),
    ("build", "/srv/app", "/srv/app/build"),
    ("C:\\Windows\\System32", None, "/c:/windows/system32"),
    ("/usr/bin/", None, "/usr/bin/"),
    # an absolute path already normal comes back as it is (folded); any other form is normalised
    ("/Etc/Passwd", None, "/etc/passwd"),
    ("/", None, "/"),
    ("//etc//passwd", None, "/etc/passwd"),
    ("/etc/./passwd", None, "/etc/passwd"),
    ("/srv/.cache/x", None, "/srv/.cache/x"),
    ("/a/b/..", None, "/a"),
    ("/a/b/.", None, "/a/b"),
])
def test_resolve_path(word: str, cwd: str | None, expected: str | None) -> None:
    assert resolve_path(word, cwd) == expected


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_analyse_never_raises(text: str) -> None:
    a = analyse(text)
    assert isinstance(a.complex, bool)
    assert isinstance(a.text, str)


_CRASHER = "{\U000e4ad6\xff\xa7S"


@pytest.mark.parametrize("text", [_CRASHER, "Aq}\x9b\U0008c3ca{\U00109024\x0bH\U000291dc\xa7",
                                  "echo " + base64.b64encode(_CRASHER.encode()).decode() + " | base64 -d | sh"])
def test_code_points_that_crash_the_parser_are_neutralised(text: str) -> None:
    # unassigned / private-use code points after `{` used to segfault tree-sitter-bash's scanner
    assert isinstance(analyse(text).complex, bool)


_WORD = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=6))
def test_argv_form_equals_string_form(argv: list[str]) -> None:
    as_list = analyse(argv)
    as_string = analyse(shlex.join(argv))
    assert [c.argv for c in as_list.commands] == [c.argv for c in as_string.commands]
    assert as_list.complex == as_string.complex


def test_argv_form_of_a_wrapper_matches_the_string_form() -> None:
    assert argvs("bash -c 'rm -rf x'") == [c.argv for c in analyse(["bash", "-c", "rm -rf x"]).commands]


def test_analysis_is_cached() -> None:
    assert analyse("git log --oneline") is analyse("git log --oneline")


@pytest.mark.parametrize(("command", "names"), [
    ("cat <<EOF | sh\nrm -rf ~\nEOF", ["cat", "sh", "rm"]),  # what the here-doc's line pipes into is walked
    ("cat <<EOF | sh -x | tee log\nls\nEOF", ["cat", "sh", "ls", "tee"]),
    ("cat <<EOF > /tmp/x && chmod +x /tmp/x\nhi\nEOF", ["cat", "chmod"]),
    ("sudo tee /etc/motd <<EOF || echo failed\nhi\nEOF", ["tee", "echo"]),
])
def test_the_rest_of_a_here_docs_line_is_read(command: str, names: list[str]) -> None:
    assert [c.name for c in analyse(command).commands] == names


def test_a_here_doc_piped_into_a_shell_is_judged_by_its_text() -> None:
    from gate import SafetyGate
    from gate.model import Decision, action_from_dict

    got = SafetyGate().assess(action_from_dict({"type": "shell", "command": "cat <<'EOF' | bash\nrm -rf ~/\nEOF"}))
    assert got.decision is Decision.BLOCK and "block.shell.recursive-delete-root" in got.rules


@pytest.mark.parametrize("command", [
    "echo $(( $(rm -rf ~) + 1 ))",  # a substitution inside an arithmetic expansion
    "arr=( $(rm -rf ~) )",  # inside an array
    "cat <<EOF\n$(rm -rf ~)\nEOF",  # an unquoted here-doc expands it
    "cat <<EOF > /dev/null\n`rm -rf ~`\nEOF",
    "trap 'rm -rf ~' EXIT",  # a handler runs when the signal comes
    "alias x='rm -rf ~'; x",
    "coproc rm -rf ~",
])
def test_commands_wherever_the_shell_runs_them_are_judged(command: str) -> None:
    assert "rm" in [c.name for c in analyse(command).commands], command


@pytest.mark.parametrize("command", [
    "cat <<'EOF'\n$(rm -rf ~)\nEOF",  # a quoted here-doc is text
    "cat <<'EOF'\n`rm -rf ~`\nEOF",
    "alias sudo='sudo '",  # a lone name: a prefix, nothing runs by itself
])
def test_text_the_shell_does_not_run_is_not_a_command(command: str) -> None:
    assert "rm" not in [c.name for c in analyse(command).commands]
    assert "sudo" not in [c.name for c in analyse(command).commands]


@pytest.mark.parametrize("piece", ["{\U00031860", "echo {a,b} \U0001F680", "x=1; f() { echo \U0002D62F; }",
                                   "a\U0001F600 {b} \U00020000"])
def test_no_astral_code_point_reaches_the_parser_after_a_brace(piece: str) -> None:
    # tree-sitter-bash#337: such a code point after `{` segfaults the scanner, depending on memory layout
    src, tree = parse_piece(piece)
    text = src.decode("utf-8")
    tail = text[text.index("{"):]
    assert all(ord(ch) <= 0xFFFF for ch in tail), text
    assert text[:text.index("{")] == piece[:piece.index("{")]  # before the brace: untouched
    assert tree.root_node is not None


def test_an_emoji_without_a_brace_reaches_the_parser_unchanged() -> None:
    src, _ = parse_piece("echo \U0001F680 done")
    assert src.decode("utf-8") == "echo \U0001F680 done"


@pytest.mark.parametrize(("text", "name"), [
    ("taskset -p 0x1 4242", "taskset"),  # a running process given a CPU mask: nothing is started
    ("taskset -cp 0 4242", "taskset"),
    ("chrt -p 0 4242", "chrt"),
    ("taskset -c 0 make", "make"),  # the wrapper form still runs its command
    ("chrt -f 10 ./server", "server"),
])
def test_taskset_and_chrt_wrap_a_command_only_without_a_pid(text: str, name: str) -> None:
    assert analyse(text).commands[-1].name == name
