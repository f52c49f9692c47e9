"""Crypto-mining pools and miner downloads reached by navigation, beside pages about mining.

A pool's stratum address, a listed pool, a host that joins a pool word to a coin and a miner's release page or
archive block (`block.nav.mining`); a miner repository's readme asks; an encyclopedia's page on pools, a coin's own
site, a wallet's releases and a pool of another kind (NTP) pass. The pools, coins, ports and miners are data
(`[mining]` of resources/destinations.toml)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation(url=url))


@pytest.mark.parametrize("url", [
    "stratum+tcp://xmr.example-hash.net:3333",
    "stratum+ssl://rvn.example.org:14444",
    "https://rvn.woolypooly.com/",
    "https://ethermine.org/miners/0xabc/dashboard",
    "http://xmrpool.example.com/",
    "http://eth-pool.example.net:4444/",
    "http://pool.minexample.io:3333/",
    "https://github.com/xmrig/xmrig/releases/latest",
    "https://github.com/Lolliedieb/lolMiner-releases/releases",
    "https://mirror.example.org/tools/xmrig-6.20.0-linux-x64.tar.gz",
    "https://sourceforge.net/projects/cpuminer/files/pooler-cpuminer-2.5.1.tar.gz",
    "https://cdn.example.com/nbminer_42_3_win.zip",
    "https://xmrig.com/download",
])
def test_pools_and_miner_downloads_block(url: str) -> None:
    got = nav(url)
    assert got.decision is Decision.BLOCK
    assert "block.nav.mining" in got.rules


def test_a_miner_repository_readme_asks() -> None:
    assert nav("https://github.com/xmrig/xmrig/blob/master/README.md").decision is Decision.CONFIRM


@pytest.mark.parametrize("url", [
    "https://en.wikipedia.org/wiki/Mining_pool",
    "https://www.getmonero.org/downloads/",
    "https://github.com/monero-project/monero/releases",
    "https://pool.ntp.org/zone/europe",
    "https://github.com/wayou/t-rex-runner",
    "https://github.com/richgel999/miniz/releases",
    "https://www.minecraft.net/download",
    "https://docs.example.com/pool/connections",
])
def test_pages_about_mining_and_other_pools_pass(url: str) -> None:
    assert "block.nav.mining" not in nav(url).rules
    assert "confirm.nav.miner-repository" not in nav(url).rules
