"""A program the table does not describe, named by its installed path (`/usr/bin/tool status`), is read by the
same convention as its bare name: a reading sub-command passes. The same name in a temporary folder still asks."""

from __future__ import annotations

import pytest

from gate.model import Decision
from tests.gate.table_sections import shell


@pytest.mark.parametrize("command", ["/usr/bin/frobtool status", "/usr/local/bin/frobtool list",
                                     "/opt/frob/bin/frobtool show --all"])
def test_a_reading_verb_by_installed_path_passes(command):
    assert shell(command).decision is Decision.ALLOW, shell(command).rules


@pytest.mark.parametrize("command", ["/tmp/frobtool status", "/usr/local/bin/frobtool delete all",
                                     "/dev/shm/frobtool list"])
def test_a_dropped_program_or_a_changing_verb_asks(command):
    assert shell(command).decision is not Decision.ALLOW
