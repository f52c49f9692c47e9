"""Unknown means ask: programs and flags the table does not describe; everyday commands stay allowed."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

_GATES = {p: SafetyGate(default_policy(p)) for p in ("balanced", "power", "kiosk")}


def shell(command: str, preset: str = "balanced") -> Assessment:
    return _GATES[preset].assess(action_from_dict({"type": "shell", "command": command}))


def decision(command: str, preset: str = "balanced") -> str:
    return shell(command, preset).decision.value


@pytest.mark.parametrize("command", [
    "frobnicate --now", "/opt/vendor/bin/agentd --install", "~/Downloads/setup.run", "cpulimit -l 9 -f zorb",
    "vim -c ':r !id' notes", "gdb -q -ex 'info proc' -ex quit", "tar -cf x.tar src --checkpoint=1 "
    "--checkpoint-action=exec=./hook", "awk 'BEGIN { while ((\"ls\" | getline l) > 0) print l }'",
    "sed -n '1e date' log.txt", "git -c core.pager='cat -A' log", "expect -c 'spawn ls'",
    "nmap --script vuln 10.0.0.0/24", "emacs --batch --eval '(message \"hi\")'",
])
def test_unknown_programs_and_code_flags_ask(command: str) -> None:
    got = shell(command)
    assert got.decision.value in ("confirm", "block"), command
    if got.decision.value == "confirm":
        assert "confirm.shell.unknown-program" in got.rules or "confirm.shell.shell-spawn" in got.rules


def test_the_reason_names_the_program() -> None:
    got = shell("zorblax --sync")
    assert "unknown program zorblax" in got.reason


@pytest.mark.parametrize("command", [
    # nl2bash-style one-liners a developer types
    "find . -type f -name '*.log' -mtime +30 | xargs ls -lh", "du -ah . | sort -rh | head -n 20",
    "grep -rn 'TODO' --include=*.py src | wc -l", "cut -d, -f3 data.csv | sort | uniq -c | sort -nr",
    "awk -F'\\t' '$3 > 100 {print $1}' table.tsv", "sed -n '5,10p' notes.md", "tr -s ' ' < in.txt | wc -w",
    "ps -eo pid,comm,%cpu --sort=-%cpu | head", "tar -tzf release.tar.gz | head", "zcat logs.gz | grep -c 500",
    "ls -1 *.jpg | wc -l", "df -h | grep -v tmpfs", "comm -23 <(sort a.txt) <(sort b.txt)",
    "find src -name '*.ts' -newer package.json", "xargs -0 -n1 md5sum < files.lst", "jq -r '.[].id' out.json",
    "git log --author=me --since=2.weeks --oneline", "git diff --name-only HEAD~3", "git grep -n parse_args",
    "make -C build test", "cargo clippy --all-targets", "go vet ./...", "pytest -x tests/unit",
    "npm run lint", "yarn test --watch=false", "python3 -m pip list", "pip show requests",
    "apt-cache policy git", "dpkg -L coreutils | head", "brew info jq", "docker images", "kubectl get svc",
    "terraform validate", "mvn -q test", "./gradlew build", "tsc --noEmit", "ruff check .", "mypy src",
    "nautilus .", "xdg-open report.pdf", "code --diff a.py b.py", "tmux ls", "watch -n 2 'ls -l out'",
    "seq 5 | paste -sd, -", "date -d yesterday +%F", "printf '%05d\\n' 42", "basename \"$PWD\"",
])
def test_everyday_commands_stay_allowed(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "allow", (command, got.rules, got.reason)


def test_power_preset_may_allow_unknown_programs() -> None:
    assert decision("frobnicate --now", "power") == "allow"
    assert decision("frobnicate --now", "balanced") == "confirm"


def test_kiosk_still_refuses() -> None:
    assert decision("frobnicate --now", "kiosk") in ("confirm", "block")


def test_unknown_programs_inside_wrappers_are_found() -> None:
    for command in ("sudo zorblax", "env A=1 zorblax", "timeout 5 zorblax", "xargs zorblax < l",
                    "bash -c 'zorblax -q'", "nice -n 5 zorblax"):
        assert "confirm.shell.unknown-program" in shell(command).rules, command


def test_prose_typed_in_a_terminal_is_not_an_unknown_program() -> None:
    from gate import SafetyGate, default_policy
    from gate.model import Observation, action_from_dict

    gate = SafetyGate(default_policy())
    got = gate.assess(action_from_dict({"type": "type", "text": "don't panic"}),
                      Observation(app="gnome-terminal-server", window_title="me@box: ~"))
    assert "confirm.shell.unknown-program" not in got.rules


def test_a_person_allows_a_known_safe_program_with_an_allow_rule(tmp_path) -> None:
    from gate.policy import load_policy

    path = tmp_path / "policy.toml"
    path.write_text('[[allow]]\nid = "frob"\ntypes = ["shell"]\ncommand = "frobnicate --dry-run*"\n')
    gate = SafetyGate(load_policy(path))
    ok = gate.assess(action_from_dict({"type": "shell", "command": "frobnicate --dry-run x"}))
    assert ok.decision.value == "allow"
    other = gate.assess(action_from_dict({"type": "shell", "command": "frobnicate --now"}))
    assert other.decision.value == "confirm"
    chained = gate.assess(action_from_dict({"type": "shell", "command": "frobnicate --dry-run x; zorblax"}))
    assert chained.decision.value == "confirm"  # never for complex strings


@pytest.mark.parametrize("command", [
    "tmux new -d 'rm -rf ~'", "tmux send-keys -t 0 'rm -rf ~' Enter", "screen -dm bash -c 'rm -rf ~'",
    "sshpass -p pw ssh root@192.0.2.5 'rm -rf /'", "entr -r rm -rf ~ < files", "watchexec -- rm -rf ~",
    "perf record -- rm -rf ~", "gdb --args rm -rf ~", "docker exec web rm -rf /", "kubectl exec p -- rm -rf /",
])
def test_programs_that_run_other_commands_are_seen_through(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "block" and "block.shell.recursive-delete-root" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "tmux ls", "tmux attach -t dev", "tmux send-keys -t dev 'make test'", "screen -r", "perf stat -- make -j4",
    "faketime '2020-01-01' date", "taskset -c 0 make",
])
def test_runners_with_ordinary_commands_pass(command: str) -> None:
    assert shell(command).decision.value == "allow", command
