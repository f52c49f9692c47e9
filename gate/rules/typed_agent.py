"""Rules: orders typed to an AI agent that acts on accounts with its tools.

    confirm.typed.agent-destroy-request  a request typed into an AI agent's console (a provider's AI playground, an
                                         MCP client, an agent's chat, a chatbot's prompt box) to delete, drop or
                                         destroy what an account keeps: a bucket, a database, a worker, a cluster

The agent carries the order out with the tools it holds, at once and for good; the provider's own console asks
before the same delete, so the gate asks too. A question about deleting ("how do I delete a bucket?") and an order
to list or create pass.
"""

from __future__ import annotations

from gate import lures
from gate.fields import ai_prompt_box, field_text, into_a_field, page_host, page_path, short, text_of
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES", "agent_console"]

TYPE = ("type",)


def agent_console(ctx: Context) -> bool:
    """The field is an AI agent's or chatbot's prompt: by the cue book's chatbot hosts and labels, or by the page's
    host and path, the field's label or the window's title naming an agent's console (`[agent-order] place`)."""
    if ctx.derived(ai_prompt_box):
        return True
    host, path = ctx.derived(page_host), ctx.derived(page_path)
    places = (text_of(f"{host} {path[:200]}").words if host else "", ctx.derived(field_text).words,
              text_of(ctx.observation.window_title[:256]).words, text_of(ctx.observation.app[:128]).words)
    return any(place and lures.agent_place(place) for place in places)


@rule("confirm.typed.agent-destroy-request", "An order typed to an AI agent to delete what an account keeps",
      risk=Risk.HIGH, types=TYPE, confidence=0.75)
def agent_destroy_request(ctx: Context) -> CheckResult:
    """A request typed into an AI agent's console to delete, drop, destroy, purge or tear down what an account keeps
    ("Delete the R2 bucket 'old-logs'", "please drop the staging database", "terminate every instance in
    eu-west-1"): the agent deletes it with its tools as soon as it reads the order, and nothing brings it back. A
    question about deleting, a request for a script, and orders that list, read or create pass."""
    text = getattr(ctx.action, "text", "") or ""
    if not 8 <= len(text) <= 2048 or not into_a_field(ctx):
        return None
    order = lures.destroy_order(text)
    if order is None or not agent_console(ctx):
        return None
    return f"an order to an AI agent that deletes what the account keeps: {short(order, 60)!r}"


RULES: tuple[Rule, ...] = (agent_destroy_request,)
