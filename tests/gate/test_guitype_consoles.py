"""SQL typed into a database client is judged as a statement whatever the client is called, and a database shell
running in a terminal (its title names psql, mongosh or shows a `mysql>` prompt) is a database console
(gate/typed.py `destination`). Examples are our own."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def decide(text: str, window: str = "", app: str = "", url: str = "") -> tuple[str, tuple[str, ...]]:
    got = GATE.assess(action_from_dict({"type": "type", "text": text}), Observation(window_title=window, app=app,
                                                                                   url=url))
    return got.decision.value, got.rules


@pytest.mark.parametrize(("window", "app"), [
    ("mysql> ", ""), ("SQLiteStudio (3.4)", "sqlitestudio"), ("Oracle SQL Developer : billing", "sqldeveloper"),
    ("Navicat Premium", "navicat"), ("Sequel Ace", "Sequel Ace"), ("Postico 2", "Postico"),
    ("DbVisualizer Pro", "dbvis"), ("sales=# ", "xterm"), ("psql", "gnome-terminal"),
])
def test_a_destructive_statement_in_any_database_client(window: str, app: str) -> None:
    decision, rules = decide("DROP TABLE invoices;\n", window, app)
    assert decision == "block" and "block.typed.database-destruction" in rules
    assert decide("SELECT id, total FROM invoices LIMIT 10;\n", window, app)[0] == "allow"


def test_a_mongo_shell_in_a_terminal_is_a_database_console() -> None:
    window = "mongosh mongodb://127.0.0.1:27017/shop"
    assert decide("db.orders.deleteMany({})\n", window, "Terminal")[0] == "block"
    assert decide("db.dropDatabase()\n", window, "Terminal")[0] == "block"


def test_an_ordinary_terminal_title_stays_a_terminal() -> None:
    assert decide("ls -la\n", "ana@build-01: ~/src", "xterm")[0] == "allow"
    assert decide("rm -rf ~/\n", "ana@build-01: ~/src", "xterm")[0] == "block"
