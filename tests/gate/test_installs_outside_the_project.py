"""Installs judged by their effect: what runs a package's own code or writes outside the project, what overrides the
system's own packages, dependency confusion's versions, a runner's pinned program, toolchains torn down, a pull
request's code installed, and a privileged command handed to a wrapper script (gate/rules/shell_installs.py,
gate/packages.py, resources/packages.toml `[confusion]`, `[overrides]`, `[teardown]`)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, Risk, action_from_dict
from gate.packages import fetched_unknown, judge_install, overrides, teardown
from tests.gate.known_packages import KNOWN_PACKAGES_GATE

GATE = SafetyGate(default_policy())


def assess(command: str, gate: SafetyGate = GATE):
    return gate.assess(action_from_dict({"type": "shell", "command": command}))


def asks(command: str, gate: SafetyGate = GATE) -> bool:
    return assess(command, gate).decision is not Decision.ALLOW


# -- a runner's program with a version ----------------------------------------------------------


def test_a_runner_program_with_a_version_is_a_fetch_of_that_package() -> None:
    # `npx tsc` runs the project's TypeScript compiler; `npx tsc@5.0.0` fetches the npm package named tsc (not
    # TypeScript) at that version, and runs it
    assert not fetched_unknown("npm", "tsc") and not fetched_unknown("npm", "vitest")
    assert fetched_unknown("npm", "tsc@5.0.0") and fetched_unknown("npm", "ng@17.0.0")
    assert not fetched_unknown("npm", "typescript@5.4.5") and not fetched_unknown("npm", "eslint@99.0.0")  # known names
    assert "confirm.shell.install" in assess("npx -y tsc@9.9.9 -p tsconfig.json").rules
    assert "confirm.shell.install" in assess("npx --yes ng@999.0.0 build").rules
    assert not asks("npx tsc --noEmit") and not asks("npx -y typescript@5.4.5 --version", KNOWN_PACKAGES_GATE)


# -- dependency confusion -----------------------------------------------------------------------


@pytest.mark.parametrize(("manager", "spec"), [("npm", "acme-internal-sdk@99.99.99"), ("npm", "@payroll/core@100.0.0"),
                                               ("pip", "corp-auth-client==9.9.9"), ("gem", "private-billing:999.0.0")])
def test_a_company_looking_name_at_an_absurd_version_blocks(manager: str, spec: str) -> None:
    concern = judge_install(manager, [spec])
    assert concern is not None and concern.risk is Risk.CRITICAL
    assert assess(f"{manager} install {spec}").decision is Decision.BLOCK


def test_an_absurd_version_of_an_unknown_name_asks_high_and_real_versions_do_not() -> None:
    assert judge_install("npm", ["leftpad-ng@99.0.0"]).risk is Risk.HIGH  # type: ignore[union-attr]
    assert judge_install("cargo", ["fastfmt@9999.0.0"]).risk is Risk.HIGH  # type: ignore[union-attr]
    for ordinary in ("leftpad-ng@1.9.9", "calver-tool@2024.10.1", "leftpad-ng@10.0.0", "@sparticuz/chromium@131.0.1",
                     "chromium-lite@99.0.4844"):
        assert judge_install("npm", [ordinary]).risk is Risk.MEDIUM, ordinary  # type: ignore[union-attr]
    assert judge_install("npm", ["react@99.0.0"]) is None  # a known name: the registry has no such release
    assert not asks("npm install react@18.3.1", KNOWN_PACKAGES_GATE)


# -- overriding the system's own packages -------------------------------------------------------


@pytest.mark.parametrize("command", [
    "pip install --break-system-packages -r requirements-dev.txt", "pip3 install --user --break-system-packages httpx",
    "PIP_BREAK_SYSTEM_PACKAGES=1 pip install -r requirements.txt", "uv pip install --system --break-system-packages .",
    "dpkg -i --force-overwrite ./tool_1.0_amd64.deb", "rpm -ivh --nodeps ./tool-1.0.x86_64.rpm",
    "pacman -Rdd openssl", "apt-get install -y --allow-change-held-packages nginx",
    "pip config set global.break-system-packages true",
])
def test_overriding_the_system_packages_asks_even_when_known_packages_pass(command: str) -> None:
    got = assess(command, KNOWN_PACKAGES_GATE)
    assert got.decision is not Decision.ALLOW and "confirm.shell.install" in got.rules, command


@pytest.mark.parametrize("command", ["pip install -r requirements.txt", "pip install --user httpx",
                                     "apt-get install -y -o Dpkg::Options::=--force-confold nginx",
                                     "pacman -S --needed git", "pip config set global.break-system-packages false",
                                     "pip config set global.timeout 60"])
def test_installs_that_override_nothing_are_not_read_as_overrides(command: str) -> None:
    words = command.lower().split()
    assert overrides(words[0], words[1:]) is None, command


# -- setup.py, source builds --------------------------------------------------------------------


@pytest.mark.parametrize("command", ["python setup.py install", "python3 setup.py develop",
                                     "python setup.py install --user", "python3 ./setup.py -q install --prefix=/opt/x",
                                     "pip download --no-binary :all: leftpad-ng",
                                     "pip wheel --no-binary=:all: leftpad-ng"])
def test_setup_code_run_to_install_or_build_from_source_asks(command: str) -> None:
    assert "confirm.shell.install" in assess(command).rules, command


@pytest.mark.parametrize("command", ["python setup.py --version", "python3 setup.py sdist bdist_wheel",
                                     "python setup.py build_ext --inplace", "python setup.py install --prefix=./local",
                                     "pip install -e .", "pip download --only-binary :all: attrs -d vendor/wheels",
                                     "pip download --no-index --find-links ./wheels -d ./out somepkg",
                                     "pip wheel --no-binary :all: -r requirements.txt -w ./wheels",
                                     "make install PREFIX=$PWD/out", "npm ci"])
def test_building_in_the_project_passes(command: str) -> None:
    assert not asks(command), command


# -- installer scripts --------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["sh install.sh", "bash ./install", "./install.sh --unattended",
                                     "bash -e scripts/install-linux.sh", "zsh ./uninstall.sh", ".\\install.ps1",
                                     "powershell -ExecutionPolicy Bypass -File .\\install.ps1", "cmd /c install.bat"])
def test_an_installer_script_asks(command: str) -> None:
    assert "confirm.shell.install" in assess(command).rules, command


@pytest.mark.parametrize("command", ["REMOTE=https://github.com/someone/fork.git sh install.sh",
                                     "INSTALL_BRANCH=experimental bash ./install.sh",
                                     "export TOOL_REPO=someone/fork && ./install.sh"])
def test_an_installer_pointed_elsewhere_asks_high(command: str) -> None:
    hits = [h for h in assess(command).hits if h.rule == "confirm.shell.install"]
    assert hits and hits[0].risk is Risk.HIGH, command


@pytest.mark.parametrize("command", ["./build.sh", "bash scripts/test.sh", "sh -c 'echo install'", "pwsh ./build.ps1",
                                     "pwsh -Command Get-Date", "build.cmd",
                                     "install -m 644 a.conf ./etc/a.conf", "./configure --prefix=$PWD/out"])
def test_other_scripts_are_not_installers(command: str) -> None:
    assert not asks(command), command


# -- a pull request's code installed ------------------------------------------------------------


@pytest.mark.parametrize("command", ["gh pr checkout 42 && npm install", "gh pr checkout 42; yarn",
                                     "git fetch origin pull/42/head:pr-42 && git switch pr-42 && make",
                                     "glab mr checkout 7 && pip install -e .", "gh pr checkout 42 && cargo build",
                                     "gh pr checkout 42 && ./build.sh", "gh pr checkout 42 && bash scripts/test.sh"])
def test_installing_a_checked_out_pull_request_asks(command: str) -> None:
    assert "confirm.shell.install" in assess(command).rules, command


@pytest.mark.parametrize("command", ["gh pr checkout 42 && git log --oneline -5", "gh pr checkout 42 && npm ci "
                                     "--ignore-scripts", "git pull && npm install", "gh pr view 42 && npm test"])
def test_reading_a_pull_request_or_installing_ones_own_branch_passes(command: str) -> None:
    assert "confirm.shell.install" not in assess(command).rules, command


# -- toolchains torn down -----------------------------------------------------------------------


def test_teardown_is_judged_by_what_is_lost() -> None:
    assert teardown("rustup", ("self", "uninstall", "-y")).risk is Risk.HIGH  # type: ignore[union-attr]
    assert teardown("pyenv", ("uninstall", "-f", "3.11.4")).risk is Risk.MEDIUM  # type: ignore[union-attr]
    assert teardown("brew", ("uninstall", "--zap", "--cask", "firefox")).risk is Risk.HIGH  # type: ignore[union-attr]
    assert teardown("pyenv", ("uninstall",)) is None  # (no version named: it prints its usage)
    assert teardown("rustup", ("toolchain", "uninstall", "nightly")) is None


@pytest.mark.parametrize("command", ["rustup self uninstall -y", "ghcup nuke", "mise implode --yes",
                                     "pyenv uninstall -f 3.10.13", "nvm uninstall 18", "asdf uninstall nodejs 20.11.0",
                                     "conda env remove -n analysis", "brew uninstall --zap --cask visual-studio-code",
                                     "opam switch remove 4.14.1", "rmvirtualenv old-env"])
def test_a_toolchain_removing_itself_or_a_version_asks(command: str) -> None:
    assert "confirm.shell.install" in assess(command).rules, command


@pytest.mark.parametrize("command", ["nvm unload", "nvm deactivate", "sdk flush", "sdk flush tmp",
                                     "rustup toolchain uninstall nightly", "pyenv versions", "rustup self update",
                                     "mise ls", "pyenv uninstall --help"])
def test_sessions_caches_and_reinstallable_toolchains_pass(command: str) -> None:
    assert not asks(command), command


# -- a privileged command handed to a script ----------------------------------------------------


@pytest.mark.parametrize("command", ["./ci/retry.sh sudo apt-get install -y libgtk-3-dev",
                                     "scripts/with-retries.sh doas pkg_add curl",
                                     "bash ./retry sudo rm -rf /var/lib/app"])
def test_a_privileged_command_handed_to_a_script_is_judged_as_typed(command: str) -> None:
    got = assess(command)
    assert got.decision is not Decision.ALLOW and "confirm.shell.privilege-escalation" in got.rules, command


@pytest.mark.parametrize("command", ["./ci/retry.sh npm ci", "./scripts/run.sh --verbose", "./gradlew build"])
def test_a_script_given_ordinary_arguments_passes(command: str) -> None:
    assert not asks(command), command


# -- a CI runner registered ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["./config.sh --url https://github.com/acme/app --token AAAA --unattended",
                                     "./config.sh --unattended --url https://dev.azure.com/acme --auth pat --token x"])
def test_registering_a_self_hosted_runner_asks(command: str) -> None:
    assert "confirm.shell.indirect-exec" in assess(command).rules, command


@pytest.mark.parametrize("command", ["./config.sh --prefix=/usr/local", "./config.sh --help", "./config.sh remove"])
def test_other_config_scripts_pass(command: str) -> None:
    assert not asks(command), command


@pytest.mark.parametrize("command", ["choco install -y git --ignore-checksums",
                                     "winget install --id Git.Git --ignore-security-hash",
                                     "choco install 7zip --allow-empty-checksums"])
def test_an_install_with_its_integrity_check_off_asks_even_when_known_packages_pass(command: str) -> None:
    assert "confirm.shell.install" in assess(command, KNOWN_PACKAGES_GATE).rules, command


def test_the_same_install_with_its_check_on_passes_when_known_packages_pass() -> None:
    assert not asks("choco install -y git", KNOWN_PACKAGES_GATE)


# -- a build's install step ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["make install", "./configure && make && make install", "gmake install-strip",
                                     "cmake --install build", "ninja -C build install", "meson install -C build",
                                     "make install PREFIX=/opt/tool", "make install PREFIX=$HOME/.local"])
def test_a_build_installed_outside_the_project_asks(command: str) -> None:
    assert "confirm.shell.install" in assess(command).rules, command


@pytest.mark.parametrize("command", ["make install PREFIX=$PWD/out", "make DESTDIR=./stage install",
                                     "PREFIX=./local make install", "cmake --install build --prefix ./dist",
                                     "meson install -C build --destdir ./stage", "make -n install", "make test",
                                     "make install-deps", "make installcheck"])
def test_a_build_kept_in_the_project_or_not_installed_passes(command: str) -> None:
    assert "confirm.shell.install" not in assess(command).rules, command


# -- the other ecosystems' named installs -------------------------------------------------------


@pytest.mark.parametrize("command", ["composer global require someone/devtool", "dotnet tool install -g someone.tool",
                                     "cpanm Some::Module", "luarocks install someone-rock"])
def test_other_ecosystems_named_installs_ask(command: str) -> None:
    assert "confirm.shell.install" in assess(command).rules, command


@pytest.mark.parametrize("command", ["composer install", "dotnet tool restore", "cpanm --installdeps .",
                                     "luarocks make"])
def test_other_ecosystems_project_dependencies_pass(command: str) -> None:
    assert not asks(command), command


@pytest.mark.parametrize("command", ["snap remove --purge firefox", "flatpak uninstall --delete-data org.gimp.GIMP",
                                     "winget uninstall --purge --id Some.App", "scoop uninstall -p vscode"])
def test_a_removal_that_deletes_the_applications_data_asks_high(command: str) -> None:
    hits = [h for h in assess(command).hits if h.rule == "confirm.shell.install"]
    assert hits and max(h.risk for h in hits) is Risk.HIGH, command


def test_a_package_install_handed_to_a_script_is_judged_as_typed() -> None:
    assert "confirm.shell.install" in assess("./scripts/with-proxy.sh npm install leftpad-ng").rules
    assert "confirm.shell.install" in assess("brew link --overwrite python@3.12", KNOWN_PACKAGES_GATE).rules
    assert not asks("brew link python@3.12")
