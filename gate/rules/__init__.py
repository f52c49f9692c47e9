"""The rule catalogue: every built-in rule, in one explicit registry (no discovery).

Plan rules (`gate.rules.plan`) judge a whole plan and are run by `SafetyGate.assess_plan`, not here.
"""

from __future__ import annotations

from gate.rules import (
    agent,
    assembled,
    build_poison,
    click_answer,
    content,
    crypto_send,
    devconfig_fetch,
    devconfig_ports,
    devconfig_servers,
    devconfig_shell,
    field_injection,
    files,
    gui,
    harmful,
    harvest_files,
    keys,
    keys_answer,
    kit_deploy,
    mail_lures,
    navigate,
    own_process,
    page,
    persist_files,
    pointer,
    privacy,
    session,
    shell,
    supply,
    system,
    typed,
    typed_docs,
    typed_lures,
    typed_out,
    vcs_clicks,
    web,
    web_attack,
    webapp,
)
from gate.rules.base import Context, Rule, rule

__all__ = ["BY_ID", "CATALOGUE", "Context", "Rule", "rule"]

CATALOGUE: tuple[Rule, ...] = (
    *agent.RULES,
    *gui.RULES,
    *keys.RULES,
    *keys_answer.RULES,
    *click_answer.RULES,
    *mail_lures.RULES,
    *privacy.RULES,
    *harmful.RULES,
    *page.RULES,
    *webapp.RULES,
    *typed_out.RULES,
    *typed_lures.RULES,
    *crypto_send.RULES,
    *session.RULES,
    *pointer.RULES,
    *typed.RULES,
    *typed_docs.RULES,
    *assembled.RULES,
    *own_process.RULES,
    *shell.RULES,
    *files.RULES,
    *harvest_files.RULES,
    *persist_files.RULES,
    *build_poison.RULES,
    *supply.RULES,
    *field_injection.RULES,
    *kit_deploy.RULES,
    *content.RULES,
    *devconfig_fetch.RULES,
    *devconfig_servers.RULES,
    *devconfig_shell.RULES,
    *devconfig_ports.RULES,
    *web.RULES,
    *web_attack.RULES,
    *navigate.RULES,
    *system.RULES,
    *vcs_clicks.RULES,
)
BY_ID: dict[str, Rule] = {r.id: r for r in CATALOGUE}
if len(BY_ID) != len(CATALOGUE):  # ids are a contract: a duplicate is a programming error
    raise RuntimeError("duplicate rule id in the catalogue")
