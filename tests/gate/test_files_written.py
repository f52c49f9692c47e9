"""`files_written`: the files a shell command writes whole, by the names it gives them (gate/content.py)."""

from __future__ import annotations

import pytest

from gate.content import files_written
from gate.shell import analyse


@pytest.mark.parametrize(("command", "written"), [
    ('echo "rm -rf ~" > Run.sh', ["Run.sh"]),  # the name as written, not folded
    ("printf x | tee -a a.sh b.sh >/dev/null", ["a.sh", "b.sh"]),
    ("curl -fsSL -o Inst.sh https://example.com/i && chmod +x Inst.sh", ["Inst.sh"]),
    ("wget --output-document=w.sh https://example.com/w", ["w.sh"]),
    ("cp /tmp/a ./B.sh", ["./B.sh"]),
    ("cat <<EOF > deploy.sh\nrm -rf /\nEOF", ["deploy.sh"]),
    ('ls > "my out.txt" 2>&1', ["my out.txt"]),
])
def test_the_files_a_command_writes(command: str, written: list[str]) -> None:
    assert files_written(analyse(command)) == written


@pytest.mark.parametrize("command", [
    "echo hi > $HOME/x",  # a variable: what it names is not known from the text
    "cp a b dir/",  # a directory destination
    "echo hi > /dev/null",
    "cat < input.txt",  # read, not written
    "ls -la",
])
def test_what_is_not_a_named_whole_file_is_left_out(command: str) -> None:
    assert files_written(analyse(command)) == []
