"""bench/catalogue_coverage.py reads a checkout of either catalogue (their YAML shapes, written here from
scratch for two made-up programs) and scores every example in every context it lists."""

from __future__ import annotations

import pathlib

from bench.catalogue_coverage import gtfobins, lolbas, loobins, main, read_yaml

ENTRY = """---
description: a made-up pager
functions:
  file-read:
  - code: |-
      pagey /path/to/input-file
    contexts:
      sudo:
      unprivileged:
  shell:
  - comment: |-
      The escape is typed into the program.
    code: |-
      pagey -e '/bin/sh'
    contexts:
      suid:
...
"""

WINDOWS = """---
Name: Fetchy.exe
Description: a made-up downloader
Commands:
  - Command: fetchy.exe -get {REMOTEURL:.exe} {PATH_ABSOLUTE:.exe}
    Category: Download
  - Command: |
      fetchy.exe -run "{CMD}"
    Category: Execute
"""


def _checkout(tmp_path: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    (tmp_path / "g" / "_gtfobins").mkdir(parents=True)
    (tmp_path / "g" / "_gtfobins" / "pagey").write_text(ENTRY)
    (tmp_path / "l" / "yml" / "OSBinaries").mkdir(parents=True)
    (tmp_path / "l" / "yml" / "OSBinaries" / "Fetchy.yml").write_text(WINDOWS)
    return tmp_path / "g", tmp_path / "l"


def test_the_yaml_reader_keeps_block_scalars_lists_and_empty_keys() -> None:
    doc = read_yaml(ENTRY)
    assert doc["functions"]["shell"][0]["code"] == "pagey -e '/bin/sh'"
    assert doc["functions"]["shell"][0]["comment"] == "The escape is typed into the program."
    assert list(doc["functions"]["file-read"][0]["contexts"]) == ["sudo", "unprivileged"]


def test_every_example_is_filled_once_per_context(tmp_path: pathlib.Path) -> None:
    g, l_ = _checkout(tmp_path)
    rows = list(gtfobins(g, benign=True))
    assert ("file-read", "pagey", "pagey /home/dev/.ssh/id_rsa") in rows
    assert ("file-read/sudo", "pagey", "sudo pagey /etc/shadow") in rows
    assert ("shell/suid", "pagey", "./pagey -e '/bin/sh'") in rows
    assert ("file-read/benign", "pagey", "pagey docs/notes.txt") in rows
    windows = list(lolbas(l_))
    assert windows[0][0] == "Download" and "https://cdn-sync.net/payload.exe" in windows[0][2]
    assert windows[1][0] == "Execute" and "{" not in windows[1][2]


def test_the_table_counts_each_class(tmp_path: pathlib.Path, capsys) -> None:
    g, l_ = _checkout(tmp_path)
    assert main(["--gtfobins", str(g), "--lolbas", str(l_)]) == 0
    out = capsys.readouterr().out
    assert "file-read/sudo" in out and "Download" in out and "all hostile" in out


MAC = """name: notey
short_description: a made-up note tool
example_use_cases:
  - name: Print a line
    description: made up
    code: "notey --print \\"hi\\"\\nnotey --quit"
    tactics:
      - Discovery
      - Collection
"""


def test_loobins_examples_run_as_written_under_their_first_tactic(tmp_path: pathlib.Path) -> None:
    (tmp_path / "LOOBins").mkdir()
    (tmp_path / "LOOBins" / "notey.yml").write_text(MAC)
    assert list(loobins(tmp_path)) == [("Discovery", "notey", 'notey --print "hi"\nnotey --quit')]
