"""A terminal's shell keeps the variables earlier lines set: a later line's `$NAME` is judged as that value, so
harm cannot be split into an assignment and its use (`K=~/.ssh/id_ed25519`, Return, `cat $K`, Return). Only whole
lines deskgate followed count; a value made at run time stays unknown; `unset` forgets."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.lines import carried_env
from gate.model import Decision, Observation, TypedLine, action_from_dict

GATE = SafetyGate(default_policy())


def in_terminal(action: dict, env: tuple[tuple[str, str], ...], text: str = ""):
    obs = Observation(app="xterm", window_title="sam@box: ~", window_id=3, line=TypedLine(text=text, env=env))
    return GATE.assess(action_from_dict(action), obs)


@pytest.mark.parametrize(("env", "typed", "rule"), [
    ((("K", "/home/sam/.ssh/id_ed25519"),), "cat $K\n", "block.shell.credential-read"),
    ((("D", "/home/sam"),), "rm -rf \"$D\"\n", "block.shell.recursive-delete-root"),
])
def test_a_line_using_a_variable_an_earlier_line_set_is_judged_with_its_value(env, typed, rule) -> None:
    got = in_terminal({"type": "type", "text": typed}, env)
    assert got.decision is Decision.BLOCK and rule in got.rules, got.rules


def test_return_after_the_use_is_judged_with_the_value_too() -> None:
    got = in_terminal({"type": "key", "keys": ["enter"]}, (("K", "/home/sam/.ssh/id_ed25519"),), text="cat $K")
    assert got.decision is Decision.BLOCK and "block.typed.line-end" in got.rules, got.rules


def test_a_harmless_value_stays_harmless() -> None:
    assert in_terminal({"type": "type", "text": "rm -rf $D\n"}, (("D", "build"),)).decision is Decision.ALLOW


@pytest.mark.parametrize(("lines", "env"), [
    (["X=1"], (("X", "1"),)),
    (["export A='two words' B=2", "unset A"], (("B", "2"),)),
    (["X=1 make build"], ()),
    (["cd /tmp && Y=/etc"], (("Y", "/etc"),)),
    (["K=$HOME/.ssh/id_ed25519"], (("K", "$HOME/.ssh/id_ed25519"),)),
    (["X=$(cat name.txt)"], (("X", "$(cat name.txt)"),)),
    (["X=`id`"], ()),
    (["CC=clang CFLAGS='-O2 -g' make"], ()),
])
def test_what_whole_lines_set(lines, env) -> None:
    got: tuple[tuple[str, str], ...] = ()
    for text in lines:
        got = carried_env(got, (TypedLine(text=text),))
    assert got == env


def test_a_line_deskgate_did_not_follow_whole_forgets_every_variable_and_the_directory() -> None:
    from gate.lines import carried_cwd

    unread = (TypedLine(text="X=/etc", known=False, why="history"),)
    assert carried_env((("D", "build"),), unread) == ()
    assert carried_cwd("~/src", unread) is None


def test_a_paste_that_ends_a_line_forgets_what_earlier_lines_set() -> None:
    from gate.lines import advance

    line = TypedLine(text="D=", env=(("D", "build"),), cwd="~/src")
    after = advance(line, action_from_dict({"type": "key", "keys": ["ctrl", "shift", "v"]}))
    assert after.env == () and after.cwd is None


@pytest.mark.parametrize("title", ["sam@box: ~", "sam@box:~ — Konsole", "root@web01: /"])
def test_a_line_run_where_the_terminals_title_says_is_judged_there(title: str) -> None:
    obs = Observation(app="xterm", window_title=title, window_id=3, line=TypedLine())
    got = GATE.assess(action_from_dict({"type": "type", "text": "rm -rf *\n"}), obs)
    assert got.decision is Decision.BLOCK and "block.shell.recursive-delete-root" in got.rules, (title, got.rules)


@pytest.mark.parametrize("title", ["sam@box: ~/src/shop", "bash", "Terminal"])
def test_the_same_line_in_a_project_or_an_unnamed_place_asks(title: str) -> None:
    obs = Observation(app="xterm", window_title=title, window_id=3, line=TypedLine())
    got = GATE.assess(action_from_dict({"type": "type", "text": "rm -rf *\n"}), obs)
    assert got.decision is Decision.CONFIRM, (title, got.rules)


@pytest.mark.parametrize(("title", "cwd"), [("sam@box: ~/src/app", "~/src/app"), ("ann@h:/tmp", "/tmp"),
                                            ("sam@box: ~ — Konsole", "~"), ("notes.txt - gedit", None),
                                            ("mail@example.com: Inbox", None)])
def test_the_directory_a_terminals_title_names(title: str, cwd: str | None) -> None:
    from gate.shell import terminal_cwd

    assert terminal_cwd(title) == cwd


@pytest.mark.parametrize(("lines", "cwd"), [
    (["cd ~"], "~"), (["cd /srv/app", "cd logs"], "/srv/app/logs"), (["cd"], "~"), (["cd src"], None),
    (["cd /tmp && ls"], "/tmp"), (["cd $WORK"], None), (["cd /tmp", "cd -"], None),
])
def test_where_cd_lines_move_the_shell(lines, cwd) -> None:
    from gate.lines import carried_cwd

    got: str | None = None
    for text in lines:
        got = carried_cwd(got, (TypedLine(text=text),))
    assert got == cwd


def test_a_line_after_cd_home_runs_in_the_home() -> None:
    obs = Observation(app="xterm", window_title="bash", window_id=3, line=TypedLine(cwd="~"))
    got = GATE.assess(action_from_dict({"type": "type", "text": "rm -rf *\n"}), obs)
    assert got.decision is Decision.BLOCK and "block.shell.recursive-delete-root" in got.rules, got.rules


def test_variables_and_the_directory_are_read_together() -> None:
    obs = Observation(app="xterm", window_title="sam@box: ~", window_id=3, line=TypedLine(env=(("F", "*"),)))
    got = GATE.assess(action_from_dict({"type": "type", "text": "rm -rf $F\n"}), obs)
    assert got.decision is Decision.BLOCK and "block.shell.recursive-delete-root" in got.rules, got.rules


@pytest.mark.parametrize(("env", "typed", "rule"), [
    ((("K", "$HOME/.ssh/id_ed25519"),), "cat $K\n", "block.shell.credential-read"),
    ((("V", "$(echo gh-deploy)"),), "mkdocs $V\n", "confirm.shell.publish"),
])
def test_a_value_naming_variables_or_a_substitution_is_read_with_the_line_that_uses_it(env, typed, rule) -> None:
    got = in_terminal({"type": "type", "text": typed}, env)
    assert rule in got.rules, got.rules
    end = in_terminal({"type": "key", "keys": ["enter"]}, env, text=typed.strip())
    assert end.decision is not Decision.ALLOW, end.rules


@pytest.mark.parametrize("line", ["D=`echo ~`", "read D", "D+=/..", "for D in ~; do :; done", "printf -v D %s ~",
                                  "source ./vars.sh", ". ./vars.sh", "eval D=~", "D=(~)", "export D=`pwd`/..",
                                  "IFS=/ read -r D <<< x"])
def test_a_variable_set_in_a_way_not_followed_is_forgotten_with_every_other(line: str) -> None:
    # a kept value would be stale: D=build, then the line, then `rm -rf $D` must not be judged as `rm -rf build`
    env = carried_env((("D", "build"), ("N", "1")), (TypedLine(text=line),))
    assert env == ()
    got = in_terminal({"type": "type", "text": "rm -rf $D\n"}, env)
    assert got.decision is not Decision.ALLOW, got.rules


@pytest.mark.parametrize("line", ["CC=clang make", "make test", "git commit -m 'a=b'", "printf '%s' hi", "ls -la"])
def test_lines_that_set_nothing_in_the_shell_keep_what_it_holds(line: str) -> None:
    assert carried_env((("D", "build"),), (TypedLine(text=line),)) == (("D", "build"),)


@pytest.mark.parametrize("line", ["popd", "z shop", "builtin cd /", "cd -- /", "source ./env.sh", "{ cd /; }"])
def test_a_move_not_followed_forgets_the_directory(line: str) -> None:
    from gate.lines import carried_cwd

    assert carried_cwd("~/src", (TypedLine(text=line),)) is None


@pytest.mark.parametrize(("line", "cwd"), [("ls", "~/src"), ("(cd /tmp && ls)", "~/src"), ("cd app", "~/src/app")])
def test_lines_that_leave_the_shell_where_it_was(line: str, cwd: str) -> None:
    from gate.lines import carried_cwd

    assert carried_cwd("~/src", (TypedLine(text=line),)) == cwd
