"""SQL that reads the server's own logins blocks as a password-hash dump; SQL that selects the columns holding
people's secrets asks; ordinary reads of the same tables pass. Whatever carries the statement: a client's
`-c`/`-e`, a here-string, or a database tool's `sql` input."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict

GATE = SafetyGate()


def shell(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


def tool(name: str, sql: str):
    return GATE.assess(action_from_dict({"type": "tool", "name": name, "input": {"sql": sql}}))


@pytest.mark.parametrize("command", [
    'psql -c "SELECT usename, passwd FROM pg_catalog.pg_shadow"',
    "psql -U postgres -c 'select rolname, rolpassword from pg_authid'",
    'mysql -uroot -e "SELECT user, host, authentication_string FROM mysql.user"',
    'mariadb -e "select * from mysql.user"',
    'sqlcmd -S db1 -Q "SELECT name, password_hash FROM sys.sql_logins"',
    'mongosh admin --eval "db.system.users.find().pretty()"',
])
def test_reading_the_servers_logins_blocks(command):
    assert "block.shell.credential-dump" in shell(command).rules, command


@pytest.mark.parametrize("command", [
    'psql -c "select email, password_hash from accounts"',
    "sqlite3 app.db 'SELECT service, api_key FROM integrations'",
    'mysql shop -e "select customer_id, card_number from payments limit 5"',
])
def test_selecting_secret_columns_asks(command):
    a = shell(command)
    assert "confirm.shell.secret-read" in a.rules and a.decision.value == "confirm", (command, a.rules)


@pytest.mark.parametrize("command", [
    'mysql -e "SELECT User, Host FROM mysql.user"',
    'psql -c "select id, email, created_at from accounts limit 10"',
    'psql -c "select count(*) from api_keys"',
    "psql -c 'select * from accounts where password_hash is null'",
    'psql -c "select * from pg_user"',
    'mysql -e "show grants"',
])
def test_ordinary_reads_pass(command):
    assert shell(command).decision.value == "allow", (command, shell(command).rules)


def test_a_database_tool_is_judged_the_same():
    assert tool("query", "SELECT * FROM pg_shadow").decision.value == "block"
    assert tool("execute_sql", "select login, password from staff").decision.value == "confirm"
    assert tool("execute_sql", "select login, created from staff").decision.value == "allow"
