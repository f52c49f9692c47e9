"""The supervisor's line per window (app/daemon/lines.py): first sight, window switches, failures."""

from __future__ import annotations

from app.daemon.lines import LineBook
from gate.model import Observation, action_from_dict


def obs(wid: int) -> Observation:
    return Observation(app="xterm", window_title="bash", window_id=wid)


def act(book: LineBook, wid: int, action: dict, ok: bool = True) -> Observation:
    seen = book.attach(obs(wid), moving=True)
    book.after(seen, action_from_dict(action), ok)
    return seen


def test_a_window_seen_first_is_unknown_until_ctrl_c():
    book = LineBook()
    assert not book.attach(obs(1), moving=False).line.known
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "type", "text": "rm -rf "})
    assert book.attach(obs(1), moving=False).line.text == "rm -rf "


def test_no_window_id_means_no_line():
    assert LineBook().attach(Observation(), moving=True).line is None


def test_a_window_switch_makes_the_line_unknown_and_a_check_changes_nothing():
    book = LineBook()
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "type", "text": "ls"})
    book.attach(obs(2), moving=False)  # a check elsewhere is no switch
    assert book.attach(obs(1), moving=True).line.known
    act(book, 2, {"type": "type", "text": "x"})
    back = book.attach(obs(1), moving=True).line
    assert not back.known and back.text == "ls" and "another window" in back.why


def test_a_failed_action_leaves_the_line_unknown():
    book = LineBook()
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "type", "text": "echo"}, ok=False)
    assert not book.line(1).known


def test_the_persons_own_input_makes_the_line_unknown():
    now = [10.0]
    person = [float("-inf")]
    book = LineBook(person=lambda: person[0], clock=lambda: now[0])
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "type", "text": "ls"})
    assert book.attach(obs(1), moving=False).line.known
    now[0], person[0] = 11.0, 10.5  # the person typed after the line was last followed
    line = book.attach(obs(1), moving=True).line
    assert not line.known and "person" in line.why


def test_a_grant_for_one_line_end_is_not_a_grant_for_another():
    from app.daemon.assessor import keyed
    from gate.model import Script, TypedLine

    enter = {"type": "key", "keys": ["Return"]}
    push = Observation(window_id=1, line=TypedLine(text="git push -f", raw="git push -f"))
    reset = Observation(window_id=1, line=TypedLine(text="git reset --hard", raw="git reset --hard"))
    assert keyed(enter, push) != keyed(enter, reset)
    assert keyed(enter, push) == keyed(enter, push)
    run = {"type": "shell", "command": "bash x.sh"}
    v1 = Observation(scripts=(Script("/w/x.sh", "git push -f"),))
    v2 = Observation(scripts=(Script("/w/x.sh", "git reset --hard"),))
    assert keyed(run, v1) != keyed(run, v2)


def test_variables_a_whole_line_set_are_kept_for_the_lines_after_it_and_across_a_window_switch():
    book = LineBook()
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "type", "text": "export TARGET=/srv/data\n"})
    act(book, 1, {"type": "type", "text": "N=3"})
    act(book, 1, {"type": "key", "keys": ["enter"]})
    act(book, 2, {"type": "type", "text": "x"})
    assert book.attach(obs(1), moving=True).line.env == (("TARGET", "/srv/data"), ("N", "3"))


def test_an_edited_or_recalled_line_sets_nothing_known():
    book = LineBook()
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "key", "keys": ["up"]})
    act(book, 1, {"type": "type", "text": "X=1\n"})
    assert book.line(1).env == ()


def test_a_grant_for_a_line_is_not_a_grant_for_the_same_line_with_other_variables():
    from app.daemon.assessor import keyed
    from gate.model import TypedLine

    enter = {"type": "key", "keys": ["Return"]}
    notes = Observation(window_id=1, line=TypedLine(text="cat $F", raw="cat $F", env=(("F", "notes.md"),)))
    key = Observation(window_id=1, line=TypedLine(text="cat $F", raw="cat $F", env=(("F", "/home/u/.ssh/id_rsa"),)))
    assert keyed(enter, notes) != keyed(enter, key)


def test_what_earlier_lines_set_is_forgotten_after_the_person_types_or_an_action_fails():
    now = [10.0]
    person = [float("-inf")]
    book = LineBook(person=lambda: person[0], clock=lambda: now[0])
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "type", "text": "D=build\n"})
    now[0], person[0] = 11.0, 10.5
    assert book.attach(obs(1), moving=True).line.env == ()
    book2 = LineBook()
    act(book2, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book2, 1, {"type": "type", "text": "D=build\n"})
    act(book2, 1, {"type": "type", "text": "D=~\n"}, ok=False)
    assert book2.line(1).env == ()


def test_the_directory_cd_lines_move_to_is_kept_but_forgotten_after_the_person_types():
    now = [10.0]
    person = [float("-inf")]
    book = LineBook(person=lambda: person[0], clock=lambda: now[0])
    act(book, 1, {"type": "key", "keys": ["ctrl", "c"]})
    act(book, 1, {"type": "type", "text": "cd /srv/app\n"})
    assert book.attach(obs(1), moving=False).line.cwd == "/srv/app"
    now[0], person[0] = 11.0, 10.5
    assert book.attach(obs(1), moving=True).line.cwd is None
