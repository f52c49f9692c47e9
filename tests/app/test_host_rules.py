"""Rules for a host, from the confirmation of a navigation, through a real deskgate (headless, with a
scripted person): "Always allow this host" is that very host; "and its subdomains" is a separate choice,
offered only where the subdomains are the host's owner's (never under a shared-hosting suffix of the
public suffix list); "Always ask for this host" writes an `[[ask]]` rule that asks even where an allow
rule matches."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from app import user_policy
from app.agent.client import Client
from app.ports import Answer, Reply
from app.user_policy import subdomains_are_the_owners, suggest_wider_rule
from gate import load_policy
from gate.model import Assessment, Decision, Observation, Risk

POLICY = """\
# my policy
[gate]
modes = { navigate = "ask" }

[fence]
enabled = false
required = false
"""


class Person:
    """Answers every confirmation with `choose(request)`, and remembers what it was shown."""

    def __init__(self, choose) -> None:
        self.choose = choose
        self.asked = []

    def ask(self, request, timeout):
        self.asked.append(request)
        return Reply(self.choose(request), by="person")

    def cancel_all(self, reason: str) -> None:
        pass


@pytest.fixture
def start(deskgate_home, serve_in_process):
    """run(person) starts a headless deskgate on the policy file; run.stop() stops the last one (a restart)."""
    home = deskgate_home(POLICY)
    running = []

    def run(approver):
        running.append(serve_in_process(home, approver=approver))
        return home["socket"]

    run.stop = lambda: serve_in_process.stop(running.pop())
    return run, home["policy"]


def _go(sock: Path, url: str, agent: str = "browser") -> dict:
    with Client(sock) as dg:
        dg.hello(agent)
        return dg.act({"type": "navigate", "url": url}, execute=False)


# -- which hosts may have "and its subdomains" ----------------------------------------------------------

@pytest.mark.parametrize("host", ["www.example.com", "example.com", "docs.python.org", "shop.bbc.co.uk",
                                  "Mail.Example.ORG."])
def test_a_registered_name_under_a_public_suffix_may_cover_its_subdomains(host) -> None:
    assert subdomains_are_the_owners(host)


@pytest.mark.parametrize("host", [
    "attacker.s3.amazonaws.com", "foo.github.io", "x.foo.github.io",   # shared hosting: neighbours are others'
    "s3.amazonaws.com", "github.io", "co.uk", "com",                    # a public suffix itself
    "localhost", "127.0.0.1", "[::1]", "::1", "",                       # no registered name at all
])
def test_shared_hosting_suffixes_addresses_and_bare_names_never_do(host) -> None:
    assert not subdomains_are_the_owners(host)


def test_the_suffix_list_is_the_shipped_snapshot_with_no_network_and_no_cache(monkeypatch, tmp_path) -> None:
    """An agent could write a cache file in the home directory, or answer a download: neither is read."""
    def no_network(*args, **kwargs):
        raise AssertionError("the public suffix list was fetched over the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    user_policy._suffixes.cache_clear()
    try:
        assert not subdomains_are_the_owners("foo.github.io") and subdomains_are_the_owners("www.example.com")
    finally:
        user_policy._suffixes.cache_clear()
    assert list(tmp_path.iterdir()) == []


def test_the_wider_rule_for_a_navigation_is_the_host_and_its_subdomains() -> None:
    asked = Assessment(decision=Decision.CONFIRM, reason="asks", rules=("confirm.x",), risk=Risk.MEDIUM,
                       confidence=1.0)
    rule, label = suggest_wider_rule({"type": "navigate", "url": "https://www.example.com/a"}, Observation(), asked)
    assert rule == {"id": "site-www-example-com", "types": ["navigate"], "host": "www.example.com",
                    "subdomains": True}
    assert label == "Always allow this host and its subdomains"
    assert suggest_wider_rule({"type": "navigate", "url": "https://foo.github.io/"}, Observation(), asked) is None


# -- through deskgate ------------------------------------------------------------------------------

def test_always_allow_is_the_exact_host_under_shared_hosting(start) -> None:
    run, policy = start
    person = Person(lambda r: Answer.ALWAYS_ALLOW)
    sock = run(person)
    first = _go(sock, "https://attacker.s3.amazonaws.com/index.html")
    assert first["decision"] == "confirm" and first["decided_by"] == "person"
    (request,) = person.asked
    assert request.wider_rule is None and request.wider_label == ""  # no subdomain choice at all
    assert request.allow_rule["subdomains"] is False
    (rule,) = load_policy(policy).allow
    assert (rule.host, rule.subdomains) == ("attacker.s3.amazonaws.com", False)
    again = _go(sock, "https://attacker.s3.amazonaws.com/other.html")
    assert again["decision"] == "allow"
    assert _go(sock, "https://evil.attacker.s3.amazonaws.com/")["decision"] == "confirm"  # a subdomain asks
    assert len(person.asked) == 2


def test_the_subdomain_choice_is_separate_and_covers_the_subdomains(start) -> None:
    run, policy = start
    person = Person(lambda r: Answer.ALLOW_WIDER if r.wider_rule else Answer.DENY)
    sock = run(person)
    first = _go(sock, "https://docs.example.org/start")
    assert first["verdict"] == "allowed" and first["decided_by"] == "person"
    (request,) = person.asked
    assert request.allow_rule["subdomains"] is False  # "Always allow this host": the exact one
    assert request.wider_label == "Always allow this host and its subdomains"
    (rule,) = load_policy(policy).allow
    assert (rule.host, rule.subdomains) == ("docs.example.org", True)
    assert _go(sock, "https://api.docs.example.org/v1")["decision"] == "allow"
    assert _go(sock, "https://example.org/")["decision"] == "confirm"  # the parent is not covered


def test_always_ask_for_this_host_asks_even_where_an_allow_rule_matches(start) -> None:
    run, policy = start
    policy.write_text(POLICY + '\n[[allow]]\nid = "bank"\ntypes = ["navigate"]\nhost = "bank.example.com"\n')
    sock = run(Person(lambda r: Answer.DENY))
    assert _go(sock, "https://bank.example.com/")["decision"] == "allow"  # the allow rule lets it through
    run.stop()

    policy.write_text(POLICY)
    person = Person(lambda r: Answer.ALWAYS_ASK)
    sock = run(person)
    first = _go(sock, "https://bank.example.com/login", agent="shopper")
    assert first["verdict"] == "allowed" and first["decided_by"] == "person"  # approved once
    (request,) = person.asked
    assert request.ask_rule == {"id": "ask-bank-example-com", "types": ["navigate"], "host": "bank.example.com",
                                "subdomains": False}
    loaded = load_policy(policy)
    assert [(r.id, r.host, r.subdomains) for r in loaded.ask] == [("ask-bank-example-com", "bank.example.com",
                                                                   False)]
    assert 'added by "Always ask for this host" for shopper: ' in policy.read_text()

    # the next time, the ask rule is why it asks: neither "always ask" nor "always allow" is offered again
    second = Person(lambda r: Answer.DENY)
    run.stop()
    sock = run(second)
    _go(sock, "https://bank.example.com/login", agent="shopper")
    (again,) = second.asked
    assert "confirm.policy.ask-bank-example-com" in again.assessment.rules
    assert again.ask_rule is None and again.allow_rule is None and again.wider_rule is None

    # an allow rule for the host written afterwards does not stop the asking
    from app.user_policy import add_allow_rule

    add_allow_rule(policy, {"id": "bank", "types": ["navigate"], "host": "bank.example.com"})
    run.stop()
    sock = run(Person(lambda r: Answer.DENY))
    again = _go(sock, "https://bank.example.com/transfer", agent="shopper-2")
    assert again["decision"] == "confirm" and "confirm.policy.ask-bank-example-com" in again["rules"]
    assert again["verdict"] == "denied"
    assert _go(sock, "https://www.example.com/", agent="shopper-3")["decision"] == "confirm"  # default mode
