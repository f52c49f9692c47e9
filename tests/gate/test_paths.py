"""gate.paths: resolving what a file action really touches."""

from __future__ import annotations

import os

import msgspec
import pytest

from gate.compiled import compile_policy
from gate.model import action_from_dict
from gate.paths import compute_facts, is_within, lexical, resolve, resolved_path, resolved_to
from gate.policy import default_policy
from gate.rules.base import Context


def policy_with_roots(*roots: str):
    p = default_policy()
    return compile_policy(msgspec.structs.replace(p, files=msgspec.structs.replace(p.files, sandbox_roots=list(roots))))


def test_resolve_expands_home_and_collapses_dotdot(tmp_path):
    home = str(tmp_path / "home")
    assert resolve("~/a/b/../c.txt", home=home) == f"{home}/a/c.txt"
    assert resolve("$HOME/.ssh/id_rsa", home=home) == f"{home}/.ssh/id_rsa"
    assert resolve("${HOME}", home=home) == home
    assert resolve("~", home=home) == home


def test_relative_paths_are_relative_to_cwd_or_home(tmp_path):
    assert resolve("x/../y.txt", cwd=str(tmp_path)) == str(tmp_path / "y.txt")
    assert resolve("y.txt", home=str(tmp_path)) == str(tmp_path / "y.txt")


def test_resolve_follows_symlinks_and_keeps_the_missing_rest_lexical(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    (sandbox / "link").symlink_to(outside)
    assert resolve(str(sandbox / "link" / "new" / "file.txt")) == str(outside / "new" / "file.txt")
    # `..` after a symlink is the target's parent, as the kernel sees it
    assert resolve(str(sandbox / "link" / ".." / "x")) == str(tmp_path / "x")
    assert lexical(str(sandbox / "link" / ".." / "x")) == str(sandbox / "x")


def test_resolve_rejects_empty_and_nul():
    with pytest.raises(ValueError):
        resolve("")
    with pytest.raises(ValueError):
        resolve("/tmp/a\0b")


def test_windows_paths_are_normalised_lexically():
    assert resolve(r"C:\Users\me\..\Public\x.txt") == "C:/Users/Public/x.txt"
    assert resolve("C:\\") == "C:/"


def test_is_within_is_component_wise():
    assert is_within("/tmp/a", "/tmp") and is_within("/tmp", "/tmp")
    assert not is_within("/tmpfoo/a", "/tmp")
    assert is_within("/etc", "/")


def test_sandbox_roots_are_expanded_and_resolved_once(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real)
    policy = policy_with_roots(str(tmp_path / "alias"), "~/deskgate-work")
    roots = policy.sandbox_roots
    assert roots[0] == str(real)
    assert roots[1] == os.path.realpath(os.path.expanduser("~/deskgate-work"))


def test_traversal_flags_only_dotdot_that_escapes_its_start(tmp_path):
    policy = policy_with_roots(str(tmp_path))
    assert compute_facts("/project/sub/../../../etc/group", None, policy).traversal
    assert compute_facts("../outside.txt", None, policy).traversal  # relative: leaves the working dir
    assert compute_facts(f"{tmp_path}/../x", None, policy).traversal  # leaves the sandbox root it began in
    assert not compute_facts("src/../lib/util.py", None, policy).traversal
    assert not compute_facts("/home/u/proj/a/../b.txt", None, policy).traversal
    assert not compute_facts("/home/u/proj/a.txt", None, policy).traversal


def test_symlink_escape_is_detected(tmp_path):
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    secret_dir = tmp_path / "elsewhere"
    secret_dir.mkdir()
    (sandbox / "notes").symlink_to(secret_dir)
    policy = policy_with_roots(str(sandbox))
    facts = compute_facts(str(sandbox / "notes" / "a.txt"), None, policy)
    assert facts.symlink_escape and not facts.in_sandbox
    plain = compute_facts(str(sandbox / "a.txt"), None, policy)
    assert plain.in_sandbox and not plain.symlink_escape


def test_resolved_path_and_to_through_context(tmp_path):
    policy = policy_with_roots(str(tmp_path))
    ctx = Context(action_from_dict({"type": "file_move", "path": "a.txt", "to": "../b.txt"}), policy=policy)
    assert ctx.derived(resolved_path) == str(tmp_path / "a.txt")
    assert ctx.derived(resolved_to) == str(tmp_path.parent / "b.txt")
    other = Context(action_from_dict({"type": "wait"}), policy=policy)
    assert other.derived(resolved_path) is None and other.derived(resolved_to) is None
