"""A program the table knows, told to publish, deploy, send or share by a sub-command its entry does not name, asks
(`mkdocs gh-deploy`, `op item share`); a look at what was published, a dry run, help, a verb inside a name, a
flag's value, and programs whose operands are text, build targets or another command do not."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "mkdocs gh-deploy --force", "hugo deploy --target production", "expo publish", "ng deploy",
    "lerna publish from-package", "mix hex.publish", "dart pub publish", "opam publish",
])
def test_a_known_programs_publish_verb_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.publish" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "op item share 'Team wifi' --emails guest@example.org", "bw send create --text 'door code'",
    "dropbox sharelink create /Reports/q3.pdf", "lpass share userls Shared-ops",
])
def test_a_known_programs_send_or_share_verb_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.remote-mutation" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "gh release list", "fj release list", "hugo deploy --dry-run", "mkdocs gh-deploy --help",
    "vault unseal key-share-2", "tmux send-keys -t 0 'ls' Enter", "echo publish",
    "awk '/deploy/' Makefile", "grep -rn share src/", "jekyll build",
    "tldr send", "cargo build --release",
])
def test_looks_dry_runs_names_and_plain_words_pass(command: str) -> None:
    got = assess(command)
    assert "confirm.shell.publish" not in got.rules and "confirm.shell.remote-mutation" not in got.rules, \
        (command, got.rules)


@pytest.mark.parametrize("command", [
    "mkdocs --verbose gh-deploy", "mkdocs -q gh-deploy", "hugo --config site.toml deploy",
    "mkdocs ${TARGET}deploy", "expo --non-interactive publish",
])
def test_the_verb_is_found_past_global_flags_and_variables(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.publish" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", ["mkdocs gh-$SUB", "mkdocs gh-$(cat verb.txt)"])
def test_a_verb_hidden_in_a_variable_beside_its_namespace_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.indirect-exec" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "vite build --mode release", "mkdocs build --config-file deploy", "hugo --environment release",
    "hugo $HUGO_FLAGS", "ffmpeg -i $IN $OUT.mp4", "java $JAVA_OPTS -jar app.jar", "mkdocs serve -a $ADDR",
])
def test_a_flags_value_and_a_whole_variable_are_not_a_verb(command: str) -> None:
    got = assess(command)
    assert not {"confirm.shell.publish", "confirm.shell.indirect-exec"} & set(got.rules), (command, got.rules)


@pytest.mark.parametrize("command", ["netlify deploy --dir=public --prod", "vsce unpublish acme.linter",
                                     "mvn site-deploy", "docker node promote worker-3"])
def test_a_program_with_checks_of_its_own_still_asks_for_a_publishing_verb(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.publish" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", ["xh post https://httpbin.org/anything a=1",
                                     "rails generate scaffold Post title:string", "net share",
                                     "vagrant upload notes.txt /tmp/notes.txt default"])
def test_a_method_a_model_name_or_a_copy_into_ones_own_vm_is_not_publishing(command: str) -> None:
    got = assess(command)
    assert not {"confirm.shell.publish", "confirm.shell.remote-mutation"} & set(got.rules), (command, got.rules)
