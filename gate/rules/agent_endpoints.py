"""Rules: a coding agent's model API or proxy pointed at another host in the agent's own settings.

A coding agent sends every prompt, every file it reads and its API key to the address its settings name
(Claude Code's `env.ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`, an assistant's `apiBase`, a proxy variable). Written
into the agent's settings file, another host receives all of it in every later session, and can answer with
instructions the agent follows. A host named for the model's maker that is not the maker's (a look-alike proxy)
refuses; any other host that is neither this machine nor the organisation's own network asks. The maker's own API,
a local gateway (LiteLLM on localhost) and an internal name pass.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from gate.content import runs_later
from gate.device_admin import local_host
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.content import WRITES, content_verdict
from gate.urls import is_loopback

__all__ = ["RULES", "api_redirect"]

# a settings key that names where an agent's model API or its traffic goes, with an address as its value
_ENDPOINT = re.compile(
    r"""["']?\b(?P<key>ANTHROPIC_BASE_URL|ANTHROPIC_API_URL|ANTHROPIC_BEDROCK_BASE_URL|ANTHROPIC_VERTEX_BASE_URL|"""
    r"""CLAUDE_CODE_API_BASE_URL|OPENAI_BASE_URL|OPENAI_API_BASE|OPENAI_API_HOST|AZURE_OPENAI_ENDPOINT|"""
    r"""GOOGLE_GEMINI_BASE_URL|GEMINI_API_BASE|GEMINI_BASE_URL|MISTRAL_API_BASE|OLLAMA_HOST|apiBase|api_base|"""
    r"""baseURL|base_url|openAiBaseUrl|anthropicBaseUrl|HTTPS_PROXY|HTTP_PROXY|ALL_PROXY|https_proxy|http_proxy|"""
    r"""all_proxy)\b["']?\s*[:=]\s*["']?(?P<url>(?:https?|socks5h?)://[^"'\s,}]+)""")
# the model makers' own API domains
_OWN = ("anthropic.com", "claude.ai", "openai.com", "googleapis.com", "google.com", "azure.com", "openai.azure.com",
        "amazonaws.com", "mistral.ai", "x.ai", "groq.com", "deepseek.com", "githubcopilot.com", "github.com",
        "cursor.sh", "cursor.com", "openrouter.ai", "together.xyz", "fireworks.ai", "cohere.com", "cohere.ai")
# a maker's or an agent's name in a host that is not theirs: a look-alike of the real API
_BRAND = re.compile(r"claude|anthropic|openai|chatgpt|gpt|gemini|copilot|cursor|codex|mistral", re.I)
# names only an organisation's own network resolves, besides a home network's (`gate/device_admin.py` `local_host`)
_ORG_SUFFIX = (".corp", ".svc", ".cluster.local")


def _internal(host: str) -> bool:
    """This machine or the organisation's own network: loopback, the any-address, a private address or local name,
    a single-label name. Only the whole host counts: `10.api-proxy.example` is someone's server."""
    return host == "0.0.0.0" or "." not in host or is_loopback(host) or local_host(host) or host.endswith(_ORG_SUFFIX)


def api_redirect(path: str, content: str) -> tuple[str, str, bool] | None:
    """(key, host, look-alike) of the first setting in an agent's settings file that sends its model traffic to a
    host that is neither the maker's nor internal, or None."""
    if runs_later(path) != "agent config":
        return None
    for m in _ENDPOINT.finditer(content[:200_000]):
        try:
            host = (urlsplit(m.group("url")).hostname or "").lower()
        except ValueError:
            continue
        if not host or _internal(host) or any(host == d or host.endswith("." + d) for d in _OWN):
            continue
        return m.group("key"), host, bool(_BRAND.search(host))
    return None


def _found(ctx: Context) -> tuple[str, str, bool] | None:
    v = ctx.derived(content_verdict)
    if not v.path or v.content is None:
        return None
    return api_redirect(v.path, v.content)


@rule("block.files.agent-api-lookalike", "A coding agent's model API sent to a look-alike host", risk=Risk.CRITICAL,
      types=WRITES)
def agent_api_lookalike(ctx: Context) -> CheckResult:
    """An agent's settings file written with its model API address or proxy (`ANTHROPIC_BASE_URL`,
    `OPENAI_BASE_URL`, `HTTPS_PROXY`) at a host named for a model's maker that is not the maker's
    (`api-proxy.claude-tools.example`): every prompt, file and the API key go to an impostor in every later session.
    The maker's own API, localhost and internal names pass."""
    hit = _found(ctx)
    if hit is None or not hit[2]:
        return None
    return f"{hit[0]} sends the agent's prompts, files and API key to {hit[1]}, a look-alike of the model's API"


@rule("confirm.files.agent-api-redirect", "A coding agent's model API sent to another host", risk=Risk.HIGH,
      types=WRITES)
def agent_api_redirect(ctx: Context) -> CheckResult:
    """An agent's settings file written with its model API address or proxy at a host that is neither the model
    maker's nor on this machine or the organisation's network (a company gateway by its public name asks too): that
    host receives every prompt, file and the API key from then on. Localhost and internal names pass."""
    hit = _found(ctx)
    if hit is None or hit[2]:
        return None
    return f"{hit[0]} sends the agent's prompts, files and API key to {hit[1]} in every later session"


RULES: tuple[Rule, ...] = (agent_api_lookalike, agent_api_redirect)
