"""Embedded, system-image, Nix and cluster toolchains, each beside the use of the same program that still asks.

ESP-IDF, Zephyr's west, Yocto's bitbake and devtool, Slurm's job submission, a Raspberry Pi's firmware readings,
the Nix store's checks and `nixos-rebuild`/`darwin-rebuild build` were unknown programs: every use asked. Building
and reading now pass; writing a board's flash, switching the running system, deleting tracked data for good
(`dvc gc`, `mlflow gc`) ask, and a notebook server open on every interface with its token off blocks. Our own
examples, written from each tool's documentation."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def shell(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


PASSES = (
    "idf.py set-target esp32c6",
    "idf.py -B build-debug build",
    "west build -p auto -b frdm_k64f samples/hello_world",
    "west update --narrow",
    "bitbake core-image-sato",
    "bitbake-layers show-layers",
    "devtool modify u-boot",
    "sbatch --array=1-8 sweep.sh",
    "esptool.py --port /dev/ttyUSB1 chip_id",
    "vcgencmd measure_clock arm",
    "nix-store -q --references ./result",
    "nix-store --verify --check-contents",
    "nixos-rebuild dry-build --flake .#server",
    "darwin-rebuild build --flake .#macbook",
    "dvc status",
    "jupyter lab --no-browser --port 8890",
)

ASKS = (
    "idf.py -p /dev/ttyUSB1 app-flash",
    "idf.py erase-flash",
    "west flash --runner jlink",
    "esptool.py --port /dev/ttyUSB1 erase_flash",
    "vcgencmd set_backlight 0",
    "nix-store --gc",
    "nix-store --verify --repair",
    "darwin-rebuild switch --flake .#macbook",
    "nixos-rebuild build --rollback",
    "dvc gc --workspace --cloud",
    "mlflow gc --older-than 30d",
    "jupyter lab --ip 0.0.0.0",
)


@pytest.mark.parametrize("command", PASSES)
def test_builds_and_readings_pass(command: str) -> None:
    assert shell(command).decision is Decision.ALLOW, command


@pytest.mark.parametrize("command", ASKS)
def test_flash_switch_and_deletion_still_ask(command: str) -> None:
    d = shell(command)
    assert d.decision is Decision.CONFIRM, (command, d.rules)


def test_data_tracker_gc_is_a_deletion() -> None:
    assert "confirm.shell.destructive" in shell("dvc gc -w -c").rules
    assert "confirm.shell.destructive" not in shell("dvc push -r storage").rules


def test_notebook_open_to_everyone_without_a_token_blocks() -> None:
    d = shell("jupyter notebook --ip=* --NotebookApp.token= --port 9999")
    assert d.decision is Decision.BLOCK and "block.shell.public-exposure" in d.rules
    near = shell("jupyter notebook --ip=127.0.0.1 --NotebookApp.token= --port 9999")
    assert near.decision is not Decision.BLOCK, near.rules
