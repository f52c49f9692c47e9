"""Grants: exact, scoped, time-limited; never from a timeout or a one-off approval."""

from __future__ import annotations

import pytest

from app.daemon.grants import GrantStore
from app.ports import Answer
from gate import action_from_dict
from gate.redact import approval_key


class Clock:
    def __init__(self) -> None:
        self.t = 50.0

    def __call__(self) -> float:
        return self.t


def key(command: str, **extra) -> str:
    return approval_key(action_from_dict({"type": "shell", "command": command, **extra}))


def add(store: GrantStore, answer: Answer, k: str, *, session: int = 1, app: str = "term",
        window: str = "~/src", minutes: int = 5):
    return store.add(answer, key=k, session_id=session, agent="a", app=app, window=window,
                     summary="shell command='make'", minutes=minutes)


@pytest.mark.parametrize("answer", [Answer.APPROVE_ONCE, Answer.DENY, Answer.DENY_AND_STOP, Answer.TIMEOUT])
def test_answers_that_grant_nothing(answer: Answer) -> None:
    store = GrantStore(Clock())
    assert add(store, answer, key("make")) is None
    assert store.list() == []


def test_minutes_grant_expires() -> None:
    clock = Clock()
    store = GrantStore(clock)
    grant = add(store, Answer.APPROVE_5_MIN, key("make"), minutes=5)
    assert grant.to_dict(clock.t)["expires_in_s"] == 300.0 and grant.to_dict(clock.t)["scope"] == "minutes"
    clock.t += 299.9
    assert store.find(key("make"), session_id=1, app="term", window="~/src") == grant
    clock.t += 0.1
    assert store.find(key("make"), session_id=1, app="term", window="~/src") is None
    assert store.list() == []


def test_session_grant_lasts_until_revoked() -> None:
    clock = Clock()
    store = GrantStore(clock)
    grant = add(store, Answer.APPROVE_SESSION, key("make"))
    clock.t += 10 * 3600
    assert store.find(key("make"), session_id=1, app="term", window="~/src") == grant
    assert grant.to_dict(clock.t)["expires_in_s"] is None
    assert store.revoke(grant.id) == grant
    assert store.revoke(grant.id) is None
    assert store.find(key("make"), session_id=1, app="term", window="~/src") is None


def test_grants_are_exact_and_scoped() -> None:
    store = GrantStore(Clock())
    add(store, Answer.APPROVE_SESSION, key("make test"))
    find = store.find
    assert find(key("make test"), session_id=1, app="term", window="~/src") is not None
    # the same command with a different note / confidence is the same request
    assert find(key("make test", note="again", confidence=0.9), session_id=1, app="term", window="~/src")
    assert find(key("make test; rm -rf ~"), session_id=1, app="term", window="~/src") is None
    assert find(key("make  test"), session_id=1, app="term", window="~/src") is None
    assert find(key("make test"), session_id=2, app="term", window="~/src") is None
    assert find(key("make test"), session_id=1, app="browser", window="~/src") is None
    assert find(key("make test"), session_id=1, app="term", window="~/other") is None


def test_revoke_session_and_all() -> None:
    store = GrantStore(Clock())
    a = add(store, Answer.APPROVE_SESSION, key("a"), session=1)
    b = add(store, Answer.APPROVE_SESSION, key("b"), session=2)
    c = add(store, Answer.APPROVE_5_MIN, key("c"), session=2)
    assert store.revoke_session(2) == [b, c]
    assert store.list() == [a]
    assert len({a.id, b.id, c.id}) == 3
    assert store.revoke_all() == [a] and len(store) == 0


def test_a_windowless_grant_holds_in_any_window_a_pointer_grant_only_in_its_own() -> None:
    store = GrantStore(Clock())
    store.add(Answer.APPROVE_SESSION, key=key("make"), session_id=1, agent="a", app="term", window="~/src",
              summary="s", minutes=5, action_type="shell")
    store.add(Answer.APPROVE_SESSION, key="click-key", session_id=1, agent="a", app="term", window="~/src",
              summary="s", minutes=5, action_type="click")
    assert store.find(key("make"), session_id=1, app="browser", window="Bank") is not None
    assert store.find("click-key", session_id=1, app="browser", window="Bank") is None
    assert store.find("click-key", session_id=1, app="term", window="~/src") is not None


def test_a_scoped_grant_outlives_its_session_until_the_scope_is_idle() -> None:
    clock = Clock()
    store = GrantStore(clock, idle_s=600)
    grant = store.add(Answer.APPROVE_SESSION, key=key("make"), session_id=1, agent="hook:s:1", app="", window="",
                      summary="s", minutes=5, scope="hook:s", action_type="shell")
    assert store.revoke_session(1) == []  # the hook process ended; the Claude Code session goes on
    assert store.find(key("make"), session_id=2, app="", window="", scope="hook:s") == grant
    assert store.find(key("make"), session_id=3, app="", window="", scope="hook:other") is None
    assert store.find(key("make"), session_id=3, app="", window="") is None  # no scope, another session
    clock.t += 599  # each use keeps it alive
    assert store.find(key("make"), session_id=4, app="", window="", scope="hook:s") == grant
    clock.t += 600
    assert store.find(key("make"), session_id=5, app="", window="", scope="hook:s") is None


def test_grantable_only_where_a_repeat_can_come() -> None:
    from app.daemon.grants import grantable

    assert grantable(scope=None, execute=True)
    assert grantable(scope="hook:s", execute=False)
    assert not grantable(scope=None, execute=False)
