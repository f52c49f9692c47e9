"""Where packages and builds come from, and the programs that run the command they are given. A package source,
channel, binary cache or chart repository over plain http, at a bare address or with its signature or certificate
check off blocks; one on an https host its project does not keep asks; the project's own sources pass. Removing
every package or a profile's rollback points asks or blocks; a version manager's `exec` is judged by what it runs."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def shell(command: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "shell", "command": command})).decision


@pytest.mark.parametrize("command", [
    "nix-build '<nixpkgs>' -A cowsay --option require-sigs false",
    "nix build nixpkgs#jq --option substituters http://198.51.100.7:8080",
    "nix build .#app --option extra-substituters http://cache.example.org",
    "nix copy --no-check-sigs --from https://cache.example.org /nix/store/abc-jq",
    "nix-channel --add http://channels.example.org/nixexprs mine",
    "opam repository add main http://198.51.100.9/opam --set-default",
    "opam repo add --all-switches extra http://opam.example.org/repo",
    "vagrant box add ubuntu-dev https://images.example.org/ubuntu.box --insecure",
    "vagrant box add ubuntu-dev http://198.51.100.3/ubuntu.box",
    "conda config --set ssl_verify false",
    "conda config --append channels http://conda.example.org/main",
    "gem sources --add http://gems.example.org/",
    "bundle config set --global ssl_verify_mode 0",
    "cargo install --index sparse+http://crates.example.org/index/ fancy-tool",
    "helm repo add internal http://charts.example.org",
    "helm repo add mirror https://198.51.100.20/charts",
    "flatpak remote-add --no-gpg-verify extras https://flatpak.example.org/repo",
    "brew tap acme/tools http://git.example.org/homebrew-tools.git",
    "npm config set strict-ssl false",
    "pnpm config set strict-ssl false",
    "composer config --global disable-tls true",
    "go env -w GOSUMDB=off",
])
def test_insecure_sources_block(command: str) -> None:
    assert shell(command) == Decision.BLOCK


@pytest.mark.parametrize("command", [
    "nix build nixpkgs#jq --option extra-substituters https://cache.example.org",
    "opam repo add extras https://opam.example.org/repo",
    "vagrant box add ubuntu-dev https://images.example.org/ubuntu.box",
    "conda config --add channels https://conda.example.org/main",
    "helm repo add tools https://charts.example.org",
    "flatpak remote-add --if-not-exists extras https://flatpak.example.org/extras.flatpakrepo",
])
def test_unknown_https_sources_ask(command: str) -> None:
    assert shell(command) == Decision.CONFIRM


@pytest.mark.parametrize("command", [
    "nix build nixpkgs#jq --option substituters https://cache.nixos.org",
    "nix build nixpkgs#jq --option extra-substituters https://nix-community.cachix.org",
    "opam repo add coq-released https://coq.inria.fr/opam/released",
    "opam repo list",
    "opam env",
    'eval "$(opam env --switch=default --set-switch)"',
    "vagrant box add generic/debian12",
    "vagrant box list",
    "conda config --add channels conda-forge",
    "conda config --set ssl_verify true",
    "gem sources --list",
    "helm repo add bitnami https://charts.bitnami.com/bitnami",
    "helm repo add jetstack https://charts.jetstack.io",
    "helm repo list",
    "flatpak remote-add --if-not-exists flathub https://dl.flathub.org/repo/flathub.flatpakrepo",
    "flatpak remotes",
    "brew tap homebrew/cask-fonts",
    "npm config set strict-ssl true",
    "go env -w GOPRIVATE=git.corp.example.org",
])
def test_official_sources_and_listings_pass(command: str) -> None:
    assert shell(command) == Decision.ALLOW


@pytest.mark.parametrize(("command", "expected"), [
    ("nix-env --uninstall '.*'", Decision.BLOCK),
    ("nix-env -e '*'", Decision.BLOCK),
    ("nix profile remove --all", Decision.BLOCK),
    ("nix-env --uninstall firefox", Decision.CONFIRM),
    ("nix profile remove ripgrep", Decision.CONFIRM),
    ("nix-env --delete-generations old", Decision.CONFIRM),
    ("nix profile wipe-history", Decision.CONFIRM),
    ("nix-collect-garbage --delete-older-than 14d", Decision.CONFIRM),
    ("opam remove lwt", Decision.CONFIRM),
    ("opam switch remove 5.1.0", Decision.CONFIRM),
    ("nix-env --list-generations", Decision.ALLOW),
    ("nix-env --rollback", Decision.ALLOW),
    ("nix-env -q", Decision.ALLOW),
])
def test_removals_and_rollback_points(command: str, expected: Decision) -> None:
    assert shell(command) == expected


@pytest.mark.parametrize("command", [
    "pyenv exec rm -rf /",
    "rbenv exec rm -rf /",
    "nodenv exec rm -rf /",
    "goenv exec rm -rf /",
    "jenv exec rm -rf /",
    "rustup run stable rm -rf /",
    "opam exec -- rm -rf /",
    "stack exec -- rm -rf /",
    "cabal exec -- rm -rf /",
    "fnm exec --using=20 rm -rf /",
    "nvm exec 20 rm -rf /",
    "volta run --node 20 rm -rf /",
])
def test_version_manager_exec_judges_the_inner_command(command: str) -> None:
    assert shell(command) == Decision.BLOCK


def test_version_manager_exec_of_an_install_is_an_install() -> None:
    assert shell("pyenv exec pip install httpx --break-system-packages") == Decision.CONFIRM
    assert shell("~/.pyenv/bin/pyenv exec pip install httpx --break-system-packages") == Decision.CONFIRM


@pytest.mark.parametrize("command", [
    "pyenv exec python --version",
    "rbenv exec bundle install",
    "rustup run nightly cargo build",
    "opam exec -- dune build",
    "nvm exec 20 node server.js",
    "pyenv versions",
])
def test_version_manager_exec_of_ordinary_work_passes(command: str) -> None:
    assert shell(command) == Decision.ALLOW
