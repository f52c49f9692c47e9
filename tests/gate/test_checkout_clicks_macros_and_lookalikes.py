"""Clicks that only take a step on a shop's, a school's or a course's own pages, beside the ones that commit.

A store's credit, points or rewards balance set against the order ("Apply store credit", "Redeem 500 points") lowers
the total and comes off again before the order is placed; a note about the order before the step towards the
checkout ("Free delivery on orders over $35 - proceed to checkout") is still that step; handing in one's own
homework on a course site is that site's everyday step.
Paying, placing the order, applying for credit and enrolling still ask."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str = "", window_title: str = ""):
    data: dict = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=window_title))


CHECKOUT = "https://www.example-outfitters.com/checkout/payment"
BASKET = "https://www.example-outfitters.com/basket"
COURSE = "https://canvas.example.edu/courses/88/assignments/12"
CLASSROOM = "https://classroom.google.com/c/NjM0/a/MTIz/details"
LEARNING = "https://www.example-learning.com/classes/watercolour-basics"

STEPS = (
    ("Apply store credit", CHECKOUT),
    ("Apply $15 store credit", CHECKOUT),
    ("Redeem 500 points", BASKET),
    ("Use rewards balance", CHECKOUT),
    ("Apply Target s rewards cash", CHECKOUT),
    ("Apply gift card balance", CHECKOUT),
    ("Free delivery on orders over $35 - proceed to checkout", BASKET),
    ("2 items in your basket, continue to payment", BASKET),
    ("Submit assignment 'Essay 3'", COURSE),
    ("Turn in homework week 5", CLASSROOM),
)

COMMITS = (
    ("Place order", CHECKOUT),
    ("Pay now", CHECKOUT),
    ("Pay now and continue to checkout", BASKET),
    ("Place order - continue to confirmation", BASKET),
    ("Apply for credit", "https://bank.example.com/cards"),
    ("Submit payment", CLASSROOM),
    ("Enroll now - $49", LEARNING),
    ("Enroll in program", LEARNING),
)


@pytest.mark.parametrize(("label", "url"), STEPS)
def test_a_step_on_a_shop_or_course_page_passes(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, got.rules, got.reason)


@pytest.mark.parametrize(("label", "url"), COMMITS)
def test_the_click_that_pays_or_commits_still_asks(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is not Decision.ALLOW, (label, got.reason)
