"""Releases an attacker published (resources/packages.toml `[compromised]`) block, however they are installed or
listed; the same packages at other versions, and version ranges, are judged as any other install."""

from __future__ import annotations

import json

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision
from gate.packages import load, poisoned
from gate.rules.supply import manifest_poison

GATE = SafetyGate()


def _shell(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "npm install plain-crypto-js",
    "npm i axios@1.14.1",
    "yarn add chalk@5.6.1",
    "pnpm add -D nx@21.5.0",
    "bun add is@5.0.0",
    "npx -y @ctrl/tinycolor@4.1.2",
    "bunx nx@21.5.0 graph",
    "pip install ctx==0.2.6",
    "pip3 install 'ultralytics==8.3.41'",
    "uv pip install torchtriton",
    "uvx ctx==0.2.2",
    "cargo add faster_log",
    "gem install rest-client:1.6.13",
    "sudo apt-get install -y xz-utils=5.6.1-1",
])
def test_a_poisoned_release_blocks(command):
    a = _shell(command)
    assert a.decision is Decision.BLOCK
    assert "block.shell.compromised-package" in a.rules


@pytest.mark.parametrize("command", [
    "npm i axios@1.14.0",
    "npm install axios",
    "npm install nx@21.4.1 --save-exact",
    "pip install ultralytics==8.3.40",
    "pip install 'ctx>=0.2'",
    "apt-get install xz-utils=5.4.1-0.2",
    "yarn add chalk@^5.6.1",
])
def test_other_versions_and_ranges_are_judged_as_any_install(command):
    a = _shell(command)
    assert "block.shell.compromised-package" not in a.rules
    assert a.decision is not Decision.BLOCK


def test_a_runner_of_a_clean_package_still_runs():
    assert _shell("npx -y serve dist").decision is Decision.ALLOW
    assert "block.shell.compromised-package" not in _shell("npx -y axios@1.14.0").rules


def test_poisoned_reads_each_ecosystem_by_its_own_spelling():
    assert poisoned("pip", "CTX==0.2.6") and poisoned("pip", "ctx[extra]==0.2.6")
    assert poisoned("npm", "@ctrl/tinycolor@4.1.1") and not poisoned("npm", "@ctrl/tinycolor@4.1.0")
    assert poisoned("cargo", "faster_log") and poisoned("cargo", "faster-log@0.1.0")
    assert not poisoned("pip", "requests==2.31.0") and not poisoned("brew", "xz")


def test_the_table_refuses_an_unknown_ecosystem():
    with pytest.raises(ValueError, match="unknown ecosystem"):
        load('[ecosystem.npm]\nmanagers = ["npm"]\n[compromised]\nnpmm = "x@1.0.0"\n')


def _write(path: str, content: str):
    return GATE.assess(action_from_dict({"type": "file_write", "path": path, "content": content}))


@pytest.mark.parametrize(("path", "content"), [
    ("/tmp/app/package.json", json.dumps({"dependencies": {"axios": "^1.14.0", "plain-crypto-js": "^4.2.1"}})),
    ("/tmp/app/package.json", json.dumps({"devDependencies": {"eslint-config-prettier": "8.10.1"}})),
    ("/tmp/app/package.json", json.dumps({"overrides": {"ua-parser-js": "0.7.29"}})),
    ("/tmp/app/requirements.txt", "requests==2.31.0\nultralytics==8.3.41\n"),
    ("/tmp/app/requirements-dev.txt", "num2words == 0.5.15\n"),
    ("/tmp/app/pyproject.toml", '[project]\nname = "x"\ndependencies = ["ctx==0.2.6", "numpy"]\n'),
    ("/tmp/app/Cargo.toml", '[dependencies]\nserde = "1"\nrustdecimal = { version = "1.23" }\n'),
    ("/tmp/app/Gemfile", "source 'https://rubygems.org'\ngem 'rest-client', '1.6.13'\n"),
])
def test_a_manifest_naming_a_poisoned_release_blocks(path, content):
    a = _write(path, content)
    assert a.decision is Decision.BLOCK
    assert "block.files.compromised-dependency" in a.rules


@pytest.mark.parametrize(("path", "content"), [
    ("/tmp/app/package.json", json.dumps({"dependencies": {"axios": "^1.14.1", "chalk": "^5.6.0"}})),
    ("/tmp/app/package.json", json.dumps({"name": "nx-plugin-demo", "version": "21.5.0"})),
    ("/tmp/app/requirements.txt", "ultralytics>=8.3\nctx\n"),
    ("/tmp/app/pyproject.toml", '[project]\nname = "ctx"\nversion = "0.2.6"\n'),
    ("/tmp/app/Cargo.toml", '[dependencies]\nrust_decimal = "1.33"\n'),
    ("/tmp/app/Gemfile", "gem 'rest-client', '2.1.0'\n"),
    ("/tmp/app/notes.txt", "ultralytics==8.3.41 was poisoned\n"),
    ("/tmp/app/package.json", "{not json"),
])
def test_clean_manifests_pass_this_rule(path, content):
    assert "block.files.compromised-dependency" not in _write(path, content).rules


def test_manifest_poison_names_the_line_it_found():
    assert manifest_poison("req/requirements.txt", "flask\nctx==0.2.2\n") == "ctx==0.2.2"
    assert manifest_poison("README.md", "ctx==0.2.2") is None


@pytest.mark.parametrize("command", [
    "printf 'ctx==0.2.6\\n' > requirements.txt && pip install -r requirements.txt",
    "echo '{\"dependencies\":{\"axios\":\"1.14.1\"}}' > package.json && npm install",
    "echo 'ultralytics==8.3.41' | tee -a requirements-dev.txt",
])
def test_a_manifest_written_from_the_shell_is_read_as_a_written_file(command):
    a = _shell(command)
    assert a.decision is Decision.BLOCK and "block.shell.compromised-dependency" in a.rules


@pytest.mark.parametrize("command", ["echo 'requests==2.31.0' >> requirements.txt", "echo ctx==0.2.6 > notes.txt",
                                     "printf 'axios@1.14.1 was poisoned\\n' > README.md"])
def test_other_shell_writes_pass_this_rule(command):
    assert "block.shell.compromised-dependency" not in _shell(command).rules
