"""Settings files written with a package source at a bare public address (block.files.untrusted-source).

The file form of `pip config set global.index-url http://203.0.113.5/simple`: every later install by anyone
takes what that address serves. A mirror by name, or one on the private network, is ordinary configuration.
"""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import FileWrite

GATE = SafetyGate()
RULE = "block.files.untrusted-source"


@pytest.mark.parametrize(("path", "content"), [
    ("/home/dev/.config/pip/pip.conf", "[global]\nindex-url = http://203.0.113.9/simple\n"),
    ("/home/dev/app/pip.ini", "[global]\nextra-index-url = http://198.51.100.23:8080/simple\n"),
    ("/home/dev/.npmrc", "registry=http://198.51.100.4:4873/\n"),
    ("/home/dev/app/.yarnrc.yml", 'npmRegistryServer: "http://198.51.100.4:4873"\n'),
    ("/home/dev/app/pyproject.toml", '[[tool.uv.index]]\nname = "fast"\nurl = "http://203.0.113.5/simple"\n'),
    ("/home/dev/app/pyproject.toml", '[[tool.poetry.source]]\nname = "m"\nurl = "http://203.0.113.5/simple/"\n'),
    ("/home/dev/.condarc", "channels:\n  - http://203.0.113.5/conda\n  - defaults\n"),
    ("/home/dev/app/NuGet.config", '<packageSources>\n  <add key="m" value="http://203.0.113.5/v3/index.json" />\n'),
    ("/home/dev/.cargo/config.toml", '[source.m]\nregistry = "sparse+http://203.0.113.5/index/"\n'),
    ("/home/dev/.gemrc", "---\n:sources:\n- http://203.0.113.5:9292/\n"),
])
def test_a_package_source_at_a_bare_public_address_blocks(path, content):
    assert RULE in GATE.assess(FileWrite(path=path, content=content)).rules, path


@pytest.mark.parametrize(("path", "content"), [
    ("/home/dev/.config/pip/pip.conf", "[global]\nindex-url = https://pypi.corp.example/simple\n"),
    ("/home/dev/app/.npmrc", "registry=http://192.168.1.20:4873/\n"),
    ("/home/dev/app/.yarnrc.yml", 'npmRegistryServer: "http://127.0.0.1:4873"\n'),
    ("/home/dev/app/pyproject.toml", '[project]\nname = "x"\nurls = {Home = "http://203.0.113.5/"}\n'),
    ("/home/dev/app/NuGet.config", '<add key="nuget.org" value="https://api.nuget.org/v3/index.json" />\n'),
    ("/home/dev/app/config/app.yaml", "server: http://203.0.113.5:8080\n"),
    ("/home/dev/app/docs/mirrors.md", "index-url = http://203.0.113.9/simple\n"),
])
def test_names_private_addresses_and_other_files_pass(path, content):
    assert RULE not in GATE.assess(FileWrite(path=path, content=content)).rules, path
