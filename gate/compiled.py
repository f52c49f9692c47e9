"""One policy, compiled once: everything the rules derive from the policy alone, built up front.

    compiled = compile_policy(policy)      # SafetyGate(policy) does this once and owns the result
    Context(action, observation, compiled, history).compiled.gui.irreversible ...

Regex alternations, resolved sandbox roots and system directories, indexed path patterns, the shell
detectors and the name sets of the agent, system and web rules all live here, next to the `Policy` they
were made from. Nothing is kept in module globals keyed by a policy: a new policy is a new
`CompiledPolicy`, and a gate built for it sees only it. The instance is immutable; the only state it holds
are the shell detector's and the path patterns' per-input result caches, which depend on the input and
this policy only.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from gate.policy import Policy

if TYPE_CHECKING:
    from gate.cues import CueBook
    from gate.harm_content import HarmBook
    from gate.patterns import Patterns
    from gate.rules.base import Rule
    from gate.rules.gui import _Compiled as GuiPatterns
    from gate.rules.shell import Detector
    from gate.rules.web import Brands

__all__ = ["CompiledPolicy", "compile_policy"]


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class CompiledPolicy:
    policy: Policy
    disabled: frozenset[str]  # gate.disabled_rules
    by_type: Mapping[str, tuple[Rule, ...]]  # the enabled catalogue rules that can fire for each action type
    home: str  # the user's home directory, resolved when the policy was compiled
    sandbox: tuple[tuple[str, str], ...]  # each `files.sandbox_roots` entry as (written, real)
    system_dirs: tuple[str, ...]  # `files.system_dirs`, normalised for `is_within`
    system_config: Patterns  # files.system_config: a service's settings in them (a change asks)
    credentials: Patterns  # files.credentials
    sensitive: Patterns  # files.sensitive
    credential_dumps: Patterns  # files.credential_dumps
    persistence: Patterns  # shell.persistence_paths
    runs_later: Patterns  # files.runs_later + shell.persistence_paths
    supervisor: Patterns  # files.supervisor_paths + deskgate's XDG directories
    supervisor_exact: tuple[re.Pattern[str], ...]  # the same, case-sensitive (tool inputs, lowered first)
    gui: GuiPatterns
    shell: Detector
    terminal: re.Pattern[str] | None  # shell.terminal_windows as one alternation
    always_block: frozenset[str]
    always_confirm: frozenset[str]
    kill_keys: frozenset[str] | None  # desktop.kill_hotkey as key names (None: no hotkey)
    system_known: frozenset[str]
    app_dirs: tuple[str, ...]
    secret_params: frozenset[str]
    download_extensions: frozenset[str]
    brands: Brands
    collector_hosts: Mapping[str, int]  # web.collector_hosts as host_matches reads them → first position
    cues: CueBook  # resources/cues.toml: steering cues, consequences, navigation labels, data-out destinations
    harm: HarmBook  # resources/harm.toml: what typed text and pages opened do to people (gate/harm_content.py)

    @property
    def sandbox_roots(self) -> tuple[str, ...]:
        """The real form of each sandbox root."""
        return tuple(real for _, real in self.sandbox)


def compile_policy(policy: Policy) -> CompiledPolicy:
    """Everything the rules derive from `policy`, built once. Pure apart from reading the home directory,
    the XDG variables and the symlinks of the sandbox roots (what a policy path means on this machine)."""
    from gate import regex_store
    from gate.cues import compile_tables, cue_book
    from gate.harm_content import harm_book
    from gate.model import ACTION_TYPES
    from gate.packages import warm as warm_packages
    from gate.paths import default_home, sandbox_pairs, supervisor_dirs
    from gate.rules import CATALOGUE
    from gate.rules.agent import kill_keys, kind_set
    from gate.rules.files import path_patterns, system_dirs
    from gate.rules.gui import compile_gui
    from gate.rules.shell import Detector
    from gate.rules.system import app_dirs, known_names
    from gate.rules.web import Brands, extensions, host_index, param_names
    from gate.shell import alternation

    if not regex_store.keeping():
        # what a check would otherwise build the first time it needs it, built now: an enforcing process (the
        # supervisor) pays it with its policy, not on an agent's action. A process that stores what it compiles
        # for its next run (`deskgate check`) starts small and builds only what its one action needs.
        warm_packages()
    home = default_home()
    own = (*policy.files.supervisor_paths, *supervisor_dirs())
    disabled = frozenset(policy.gate.disabled_rules)
    enabled = [r for r in CATALOGUE if r.id not in disabled]
    compiled = CompiledPolicy(
        policy=policy,
        disabled=disabled,
        by_type={},
        home=home,
        sandbox=sandbox_pairs(tuple(policy.files.sandbox_roots), home),
        system_dirs=system_dirs(policy.files.system_dirs),
        system_config=path_patterns(policy.files.system_config),
        credentials=path_patterns(policy.files.credentials),
        # (a file action reads the places a shell command reads: one list of secret places for both)
        sensitive=path_patterns((*policy.files.sensitive, *policy.shell.secret_paths)),
        credential_dumps=path_patterns(policy.files.credential_dumps),
        persistence=path_patterns(policy.shell.persistence_paths),
        runs_later=path_patterns((*policy.files.runs_later, *policy.shell.persistence_paths)),
        supervisor=path_patterns(own),
        supervisor_exact=tuple(re.compile(p) for p in own),
        gui=compile_gui(policy.gui),
        shell=Detector(policy.shell, policy.files),
        terminal=alternation(policy.shell.terminal_windows),
        always_block=kind_set(policy.gate.always_block),
        always_confirm=kind_set(policy.gate.always_confirm),
        kill_keys=kill_keys(policy.desktop.kill_hotkey),
        system_known=known_names(policy.system.known),
        app_dirs=app_dirs(policy.system.app_dirs),
        secret_params=param_names(policy.web.secret_params),
        download_extensions=extensions(policy.web.download_extensions),
        brands=Brands(tuple(policy.web.brands)),
        collector_hosts=host_index(policy.web.collector_hosts),
        cues=cue_book(),
        harm=harm_book(),
    )
    # the rules that can fire for each action type under this policy (a dead one would only return None)
    by_type = {kind: tuple(r for r in enabled if (r.types is None or kind in r.types)
                           and (r.live is None or r.live(compiled, kind))) for kind in ACTION_TYPES}
    object.__setattr__(compiled, "by_type", by_type)  # built from the compiled parts above, then frozen
    # what the rules compile from the cue book (their [parts] patterns): built now, not by the first assessment
    compile_tables(compiled.cues)
    return compiled
