"""Everyday command-line tools the table now describes, each beside the form of the same program that still asks.

Data and document tools (csvkit's SQL over CSV, parquet readers, ImageMagick's montage, libvips, QR and
HTML-to-PDF renderers, a media player, VisiData), the read-only verbs of developer tools that otherwise build,
deploy or run code (dbt, sqlite-utils, sccache, macOS Shortcuts, Tilt, apt-file, mdimport, Sysinternals' streams,
jcmd, PlatformIO, arduino-cli, CircleCI, GitLab Runner, GoReleaser) and Azure PowerShell's listing cmdlets were
unknown programs: every use asked. Their reading uses now pass; the writing, deploying, uploading or code-running
uses of the same programs keep asking. Our own examples, written from each tool's documentation."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def shell(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


EVERYDAY = (
    'csvsql --query "select region, sum(amount) from sales group by region" sales.csv',
    "parquet-tools schema events.parquet",
    "parquet-tools head -n 5 events.parquet",
    "montage thumbs/*.png -tile 4x -geometry +4+4 contact-sheet.png",
    "vips thumbnail photo.jpg thumb.jpg 256",
    "vipsthumbnail *.jpg -s 200",
    'qrencode -o wifi.png "WIFI:S:Guest;T:WPA;P:welcome;;"',
    "weasyprint invoice.html invoice.pdf",
    "ffplay -autoexit clip.mp4",
    "jo -p name=demo tags=$(jo -a a b)",
    "dbt compile --select orders",
    "dbt test --select customers",
    "dbt ls --resource-type model",
    "dbt docs generate",
    "sqlite-utils tables analytics.db --counts",
    "sqlite-utils rows analytics.db visits --limit 20",
    "sqlite-utils schema analytics.db",
    "sccache --show-stats",
    "shortcuts list",
    "tilt get uiresources",
    "tilt logs api",
    "Get-AzVM -ResourceGroupName web-rg -Status",
    "Get-AzResourceGroup | Format-Table ResourceGroupName, Location",
    "Get-AzStorageAccount",
    "pipelist",
    r"streams -s C:\Users\me\Downloads",
    "apt-file search libpq.so.5",
    "mdimport -L",
    "vd orders.csv",
    "visidata sales.xlsx",
    "jcmd 4242 Thread.print",
    "jstat -gc 4242 1000 5",
    "emulator -list-avds",
    "pio run -e uno",
    "pio device list",
    "arduino-cli board list",
    "arduino-cli compile --fqbn arduino:avr:uno Blink",
    "circleci config validate",
    "circleci local execute test",  # (the job run here in a container, as `act` runs a workflow)
    "gitlab-runner list",
    "goreleaser check",
    "goreleaser release --snapshot --clean",
    "gping example.com",
    "doggo example.com MX",
    "nvtop",
)

# the same programs used to change a database, a cluster or the machine, or handed code: they still ask
STILL_ASK = (
    'csvsql --db postgresql://db.example.com/crm --insert customers.csv',
    'csvsql --query "select 1" --db sqlite:///local.db --insert data.csv',
    "dbt run --target prod",
    "dbt build",
    "dbt seed",
    "dbt test --store-failures",
    'sqlite-utils query analytics.db "delete from visits"',
    "sqlite-utils convert analytics.db visits path 'value.lower()'",
    "sqlite-utils tables analytics.db --load-extension ./ext.so",
    "sqlite-utils insert analytics.db visits visits.json",
    "sccache bash -c 'make all'",
    'shortcuts run "Resize Images"',
    "tilt down",
    "jo name=x > ~/.bashrc",
    "montage a.png b.png -o ~/.bashrc",
    "Get-AzKeyVaultSecret -VaultName ops -Name db-password -AsPlainText",
    "Get-AzStorageAccountKey -ResourceGroupName web-rg -Name webstore",
    "Get-AzAccessToken",
    "Get-AzVM -Name old-vm | Remove-AzVM -Force",
    r"streams -s -d C:\Users\me\Downloads",
    "apt-file update",
    "mdimport -r ./Custom.mdimporter",
    "vd -p cleanup.vdj orders.csv",
    "visidata --play steps.vdj",
    "jcmd 4242 JVMTI.agent_load /tmp/agent.so",
    "jcmd 4242 GC.heap_dump /tmp/heap.hprof",
    "pio run -t upload",
    "arduino-cli upload -p /dev/ttyACM0 Blink",
    "arduino-cli compile -u -p /dev/ttyACM0 --fqbn arduino:avr:uno Blink",
    "gitlab-runner register --url https://gitlab.example.com",
    "goreleaser release --clean",
)


@pytest.mark.parametrize("command", EVERYDAY)
def test_everyday_use_passes(command: str) -> None:
    got = shell(command)
    assert got.decision is Decision.ALLOW, (command, got.rules, got.reason)


@pytest.mark.parametrize("command", STILL_ASK)
def test_changing_use_of_the_same_program_asks(command: str) -> None:
    got = shell(command)
    assert got.decision is not Decision.ALLOW, (command, got.reason)
