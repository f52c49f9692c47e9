"""Package installs judged by what they install (resources/packages.toml, gate/packages.py): widely used
packages from the default registry pass, imitations and self-declared malware ask at high risk, unknown
names ask, other sources ask at high risk; removing a project dependency passes, removing system
packages asks."""

from __future__ import annotations

from importlib import resources

import pytest

from gate import SafetyGate, default_policy, load_policy
from gate.model import Decision, Risk, action_from_dict
from gate.packages import ECOSYSTEMS, default_source, judge_install, judge_removal, load, normalise
from gate.rules.shell_vocab import _PKG_INSTALL, _PKG_REMOVE
from tests.gate.known_packages import passes_only_when_known_packages_pass

GATE = SafetyGate(default_policy())


def assess(command: str, gate: SafetyGate = GATE):
    return gate.assess(action_from_dict({"type": "shell", "command": command}))


def install_findings(command: str, gate: SafetyGate = GATE):
    return [h for h in assess(command, gate).hits if h.rule == "confirm.shell.install"]


# -- the data ------------------------------------------------------------------------------------


def test_the_data_file_loads_and_every_ecosystem_has_entries() -> None:
    text = resources.files("resources").joinpath("packages.toml").read_text("utf-8")
    data = load(text)
    assert data.malicious and data.hosts and data.ppas and data.buckets
    ecosystems = {e.name: e for e in data.ecosystems.values()}
    for name in ("pypi", "conda", "npm", "crates", "rubygems", "go", "brew", "winget", "chocolatey", "scoop",
                 "debian", "redhat", "alpine", "arch", "packagist", "nuget", "snap", "flatpak"):
        assert ecosystems[name].known, name
    for big in ("pypi", "npm", "crates", "brew", "debian"):  # a few hundred names where ecosystems are big
        assert len(ecosystems[big].known) >= 200, big


def test_every_listed_manager_is_one_the_shell_rules_judge() -> None:
    for manager in ECOSYSTEMS:
        assert manager in _PKG_INSTALL or manager in _PKG_REMOVE, manager


def test_names_are_stored_as_their_registry_normalises_them() -> None:
    for eco in ECOSYSTEMS.values():
        for name in eco.known:
            assert name == name.lower().strip(), (eco.name, name)
            if eco.name in ("pypi", "conda"):
                assert normalise("pypi", name) == name, name


def test_every_listed_package_passes_its_own_manager() -> None:
    # (so none is written unnormalised, and none carries a word that says it is malicious)
    for eco in {id(e): e for e in ECOSYSTEMS.values()}.values():
        for name in sorted(eco.known):
            assert judge_install(eco.managers[0], [name]) is None, (eco.name, name)


@pytest.mark.parametrize("text", [
    '[ecosystem.x]\nmanagers = []\npopular = ["a"]\n',
    '[ecosystem.x]\nmanagers = ["m"]\nremoves = "sometimes"\n',
    '[ecosystem.x]\nmanagers = ["m"]\ninclude = ["nope"]\n',
    '[ecosystem.x]\nmanagers = ["m"]\n[ecosystem.y]\nmanagers = ["m"]\n',
])
def test_a_broken_table_is_an_error_that_names_it(text: str) -> None:
    with pytest.raises(ValueError, match=r"packages\.toml"):
        load(text)


@pytest.mark.parametrize(("eco", "spec", "name"), [
    ("pypi", "flask==3.0.0", "flask"), ("pypi", "click>=8", "click"), ("pypi", "uvicorn[standard]", "uvicorn"),
    ("pypi", "python_dateutil", "python-dateutil"), ("pypi", "ruamel.yaml", "ruamel-yaml"),
    ("pypi", "requests;python_version>'3'", "requests"), ("npm", "@types/node@20", "@types/node"),
    ("npm", "react@^18", "react"), ("npm", "alias@npm:lodash@4", "lodash"), ("crates", "serde_json", "serde-json"),
    ("crates", "ripgrep@14.1.0", "ripgrep"), ("go", "github.com/spf13/cobra@latest", "github.com/spf13/cobra"),
    ("debian", "libssl-dev:amd64", "libssl-dev"), ("debian", "curl=7.88.1-10", "curl"),
    ("rubygems", "rails:7.1.0", "rails"), ("brew", "python@3.12", "python"), ("pypi", "7.1.0", None),
    ("npm", "mylib@file:../mylib", None),
])
def test_install_arguments_normalise_to_registry_names(eco: str, spec: str, name: str | None) -> None:
    assert normalise(eco, spec) == name


# -- widely used packages pass, whatever the manager ----------------------------------------------


@pytest.mark.parametrize("command", [
    "pip install 'Flask==3.0.0' 'click>=8'", "python -m pip install -U requests", "pip3 install --user httpx",
    "npm install --save-dev eslint", "npm i -D typescript @types/node", "yarn add lodash", "pnpm add -D vitest",
    "bun add zod", "uv add httpx", "uv pip install numpy pandas", "uv tool install ruff", "poetry add rich",
    "poetry add --group dev pytest", "pipx install black", "pdm add fastapi", "conda install -c conda-forge numpy",
    "cargo install ripgrep", "cargo add serde --features derive", "gem install bundler", "gem install rails -v 7.1.0",
    "bundle add rspec", "brew install jq", "brew install --cask visual-studio-code", "brew install python@3.12",
    "brew install hashicorp/tap/terraform", "winget install --id Git.Git -e",
    "winget install -e --id Microsoft.VisualStudioCode", "choco install git -y", "go get github.com/spf13/cobra@latest",
    "go install golang.org/x/tools/gopls@latest", "apt-get install -y build-essential libssl-dev",
    "apk add --no-cache curl git", "dnf install -y gcc-c++ openssl-devel",
    "pip install torch --index-url https://download.pytorch.org/whl/cpu",
    "npm install --registry https://registry.npmjs.org lodash", "npm i @testing-library/react",
    "npm i react@^18.2.0 lodash@latest mylib@file:../mylib", "npm i -w packages/web react", "pnpm add -w turbo",
    "composer require --dev phpunit/phpunit:^10", "composer require laravel/sanctum", "snap install code --classic",
    "dotnet add package Microsoft.EntityFrameworkCore --version 8.0.0",
    "dotnet add src/App/App.csproj package Serilog.Sinks.Console", "flatpak install -y flathub org.gimp.GIMP",
])
def test_widely_used_packages_from_the_default_registry_pass_when_known_packages_may(command: str) -> None:
    passes_only_when_known_packages_pass(command)


def test_a_known_install_under_sudo_still_asks_for_the_privilege() -> None:
    got = assess("sudo apt-get install -y build-essential")
    assert got.decision is Decision.CONFIRM and "confirm.shell.privilege-escalation" in got.rules


def test_a_package_name_starting_with_http_is_not_a_url() -> None:
    for command in ("uv add httpx", "pip install httpie", "uv add some-httpish-lib"):
        for h in install_findings(command):
            assert "untrusted source" not in h.reason, command


def test_the_default_asks_for_every_named_install_and_a_policy_can_let_known_ones_pass(tmp_path) -> None:
    assert assess("pip install requests").decision is Decision.CONFIRM
    assert assess("pip install -r requirements.txt").decision is Decision.ALLOW  # the project's own
    f = tmp_path / "policy.toml"
    f.write_text("[shell]\nknown_packages_allowed = true\n")
    lenient = SafetyGate(load_policy(f))
    assert assess("pip install requests", lenient).decision is Decision.ALLOW
    assert assess("pip install reqeusts", lenient).decision is Decision.CONFIRM  # an imitation still asks
    assert SafetyGate(load_policy(preset="power")).assess(
        action_from_dict({"type": "shell", "command": "brew install jq"})).decision is Decision.ALLOW


# -- names that imitate, declare themselves, or are unknown ---------------------------------------


@pytest.mark.parametrize(("command", "like"), [
    ("pip install reqeusts", "requests"),  # two letters swapped
    ("pip install python-dateutils", "python-dateutil"),  # a letter added
    ("npm i expresss", "express"),
    ("npm i lodahs", "lodash"),
    ("pip install reque5ts", "requests"),  # a look-alike digit
    ("npm i react_dom", "react-dom"),  # npm keeps separators apart: another package
    ("cargo install rip-grep", "ripgrep"),
    ("gem install railz", "rails"),
    ("npm i @typse/node", "@types/node"),  # the owner's scope imitated
    ("brew install wgett", "wget"),
    ("composer require guzzlehtp/guzzle", "guzzlehttp/guzzle"),
])
def test_a_name_one_slip_from_a_widely_used_one_asks_high(command: str, like: str) -> None:
    hits = install_findings(command)
    assert hits and hits[0].risk is Risk.HIGH and like in hits[0].reason, (command, hits)


def test_letters_outside_ascii_that_fold_to_a_known_name_ask_high() -> None:
    hits = install_findings("pip install r\u0435quests")  # Cyrillic e
    assert hits and hits[0].risk is Risk.HIGH


@pytest.mark.parametrize("command", [
    "cargo install malicious-crate", "go install example.com/evil@latest", "pip install token-grabber",
    "npm i discord-stealer", "gem install backdoor-tools", "pip install tokengrabber", "npm i superkeylogger",
])
def test_a_name_that_says_what_it_is_asks_high(command: str) -> None:
    hits = install_findings(command)
    assert hits and hits[0].risk is Risk.HIGH and "says what it is" in hits[0].reason, command


@pytest.mark.parametrize("command", ["pip install devil-tools", "npm i medieval-dates", "pip install acme-internal",
                                     "composer require acme/internal", "dotnet add package Acme.Internal",
                                     "flatpak install flathub io.github.someone.App", "snap install acme-tool"])
def test_an_unknown_name_asks_medium_as_a_package_the_gate_does_not_know(command: str) -> None:
    hits = install_findings(command)
    assert hits and hits[0].risk is Risk.MEDIUM and "does not know" in hits[0].reason, (command, hits)
    assert assess(command).decision is Decision.CONFIRM


def test_one_unknown_package_among_known_ones_asks() -> None:
    hits = install_findings("pip install flask requests acme-internal")
    assert hits and "acme-internal" in hits[0].reason and "flask:" not in hits[0].reason


# -- sources other than the registry -------------------------------------------------------------


@pytest.mark.parametrize("command", [
    "pip install --index-url http://pypi-mirror.example/simple requests",
    "pip install --extra-index-url https://pkgs.example.net/simple requests",
    "pip install git+https://github.com/someone/tool.git", "pip install -e git+https://github.com/someone/tool.git",
    "pip install -r https://paste.example/requirements.txt", "pip install /tmp/tool-1.0-py3-none-any.whl",
    "pip install --index-url http://pypi.org/simple requests",  # the right host, without TLS
    "conda install -c someone numpy", "npm i someone/some-repo", "npm install --registry http://10.0.0.5:4873 lodash",
    "brew tap someone/tools", "brew install someone/tools/jq", "cargo install --git https://github.com/someone/x",
    "npm i lodash@github:someone/lodash", "yarn add react@git+ssh://git@example.com/r.git",
    "dotnet add package Serilog --source https://feed.example.net/v3/index.json",
])
def test_another_source_asks_high(command: str) -> None:
    hits = install_findings(command)
    assert hits and hits[0].risk is Risk.HIGH, (command, hits)


@pytest.mark.parametrize(("manager", "value", "default"), [
    ("pip", "https://pypi.org/simple", True), ("pip", "https://download.pytorch.org/whl/cu121", True),
    ("pip", "http://pypi.org/simple", False), ("pip", "https://pypi.org.evil.example/simple", False),
    ("conda", "conda-forge", True), ("conda", "someone", False), ("winget", "msstore", True),
    ("npm", "https://registry.npmjs.org/", True), ("npm", "https://npm.example.com", False),
])
def test_the_default_registry_is_known_by_host_or_channel(manager: str, value: str, default: bool) -> None:
    assert default_source(manager, value) is default


def test_a_manager_flag_that_takes_no_value_does_not_hide_the_package() -> None:
    # winget's -e (exact) and pnpm's -w (workspace root) take no value: the name after one is installed
    hits = install_findings("winget install -e Someone.UnknownTool")
    assert hits and "someone.unknowntool" in hits[0].reason
    hits = install_findings("pnpm add -w some-unknown-thing")
    assert hits and "some-unknown-thing" in hits[0].reason


# -- removals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    "pip uninstall -y requests-mock", "npm uninstall left-pad", "npm rm lodash", "pip3 uninstall numpy",
    "gem uninstall rails", "cargo uninstall ripgrep", "conda remove numpy", "pipx uninstall black",
])
def test_taking_a_project_dependency_out_passes(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", ["apt-get remove nginx", "brew uninstall jq", "winget uninstall Git.Git",
                                     "choco uninstall 7zip", "dnf remove httpd", "conda remove -n work --all"])
def test_removing_system_packages_still_asks(command: str) -> None:
    hits = install_findings(command)
    assert hits and hits[0].risk is Risk.MEDIUM, (command, hits)


@pytest.mark.parametrize(("command", "why"), [
    ("apt-get remove --purge python3*", "every package matching"), ("pip uninstall -y pip", "itself"),
    ("npm uninstall -g npm", "itself"), ("apt remove python3", "itself"), ("dnf remove systemd", "core"),
    ("apt-get purge openssh-server", "core"), ("pip uninstall 'django*'", "every package matching"),
])
def test_removing_globs_the_manager_the_language_or_the_core_asks_high(command: str, why: str) -> None:
    hits = install_findings(command)
    assert hits and hits[0].risk is Risk.HIGH and why in hits[0].reason, (command, hits)


def test_judges_answer_none_only_for_what_passes() -> None:
    assert judge_install("pip", ["flask", "requests==2.31"]) is None
    assert judge_install("port", ["jq"]) == (Risk.MEDIUM, "")  # no list kept for MacPorts: asks as before
    assert judge_removal("npm", ["left-pad"]) is None
    assert judge_removal("apt", ["left-pad"]) is not None


# -- package sources added -----------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    "add-apt-repository -y ppa:someone/stuff", "add-apt-repository 'deb http://203.0.113.9/apt stable main'",
    "dnf config-manager --add-repo=http://203.0.113.9/x.repo",
    "dnf config-manager addrepo --from-repofile=https://repo.example.net/x.repo",
    "zypper addrepo https://repo.example.net/tools tools", "choco source add -n=mine -s http://203.0.113.9/choco",
    "winget source add -n mine https://repo.example.net/winget", "scoop bucket add mine https://github.com/o/bucket",
    "brew tap someone/tools",
])
def test_adding_a_package_source_the_gate_does_not_know_asks_high(command: str) -> None:
    hits = install_findings(command)
    assert hits and hits[0].risk is Risk.HIGH, (command, hits)


@pytest.mark.parametrize("command", [
    "add-apt-repository ppa:deadsnakes/ppa", "dnf config-manager --add-repo https://download.docker.com/linux/fedora/docker-ce.repo",
    "add-apt-repository 'deb [arch=amd64] https://download.docker.com/linux/ubuntu jammy stable'",
    "scoop bucket add extras", "brew tap hashicorp/tap", "dnf config-manager --set-enabled crb",
])
def test_adding_a_source_its_project_keeps_passes(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", ["dotnet add reference ../Lib/Lib.csproj",
                                     "dotnet add src/App/App.csproj reference ../Lib/Lib.csproj"])
def test_a_project_reference_is_no_install(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW, assess(command).rules
