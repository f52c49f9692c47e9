"""A browser's window title is its page's title: it names a terminal only when it starts with one (a web terminal:
"Terminal 1 - JupyterLab", "bob@web-01: ~"), not when an article or a thread speaks of terminals."""

import pytest

from gate import Observation, SafetyGate, action_from_dict
from gate.model import Decision


def typed(text: str, app: str, title: str, url: str = ""):
    return SafetyGate().assess(action_from_dict({"type": "type", "text": text}),
                               Observation(app=app, window_title=title, url=url))


@pytest.mark.parametrize("title", ["How to colour output in a Linux terminal - Forum",
                                   "Best shell prompts for zsh users | Blog"])
def test_a_page_about_terminals_is_a_page(title):
    a = typed("nice write-up, thanks\n", "Mozilla Firefox", title, "https://forum.example/t/42")
    assert a.decision is Decision.ALLOW, a.rules


@pytest.mark.parametrize(("app", "title", "url"), [
    ("Firefox", "Terminal 1 - JupyterLab", "http://localhost:8888/lab/terminals/1"),
    ("Google Chrome", "admin@web-01: ~", "https://panel.example/console"),
    ("gnome-terminal", "Colored output tips", ""),  # a terminal app's title may say anything
])
def test_a_terminal_in_or_out_of_a_browser_runs_what_is_typed(app, title, url):
    assert typed("rm -rf ~\n", app, title, url).decision is Decision.BLOCK
