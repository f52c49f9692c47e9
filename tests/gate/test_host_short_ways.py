"""The short ways of the host readers (gate/destinations.py, gate/hostile_hosts.py): each finds what the long way
found, checked here against the long way written out."""

from __future__ import annotations

import pytest

from gate import destinations as d
from gate import hostile_hosts as h


def _misspelt_the_long_way(host: str) -> str | None:
    """`misspelt_brand`'s name loops as they read every name (its reason, or None)."""
    if not host or d.ip_of(host) is not None or d.is_loopback(host) or "." not in host or d.own_site(host):
        return None
    names = (*d._BT_LONG, *d._BT_SHORT)
    for label in d._labels(host):
        parts = d._PART.findall(label.translate(d._SC_DIGITS) if any(c.isalpha() for c in label) else label)
        for p in parts:
            if len(p) < 6 or p in d._BT_DECOYS or p in d._OWN or p in d._SC_WORDS:
                continue
            for name in names:
                if d._folded_off(p, name) or (len(name) >= 6 and p != name and d._fold(p) == d._fold(name)):
                    return f"{host} misspells {name!r}, and is not its site"
            lure = next((q for q in parts if q != p and q in d._BT_LURES), None)
            if lure is None:
                continue
            for name in names:
                if p != name and p[:1] == name[:1] and abs(len(p) - len(name)) <= 1 and \
                        d._edits(d._fold(p), d._fold(name)) <= 1:
                    return f"{host} misspells {name!r} beside {lure!r}, and is not its site"
    return None


def _misspellings(name: str) -> list[str]:
    """A letter dropped, doubled or swapped, look-alike letters (`m` as `rn`, `w` as `vv`, `i` as `l` or `1`)."""
    out = [name[:i] + name[i + 1:] for i in range(len(name))]
    out += [name[:i] + name[i] + name[i:] for i in range(len(name))]
    out += [name[:i] + name[i + 1] + name[i] + name[i + 2:] for i in range(len(name) - 1)]
    out += [name.replace("m", "rn"), name.replace("w", "vv"), name.replace("i", "l"), name.replace("i", "1"),
            name.replace("o", "0")]
    return out


@pytest.mark.parametrize("name", sorted({*d._BT_LONG, *d._BT_SHORT}))
def test_a_misspelt_brand_is_found_by_its_initial_as_by_every_name(name: str) -> None:
    hosts = [f"{w}.example.com" for w in _misspellings(name)]
    hosts += [f"{w}-verify.example.net" for w in _misspellings(name)[:6]]
    hosts += [f"secure-{name}.example.org", f"{name}.example.org", f"{name.upper()}-login.example.org"]
    found = 0
    for host in hosts:
        verdict = d.misspelt_brand(host.lower())
        assert (verdict.why if verdict else None) == _misspelt_the_long_way(host.lower()), host
        found += verdict is not None
    # a long name's misspellings are found on their own, a short one's beside a lure (not all: near misses)
    assert found or name not in d._BT_LONG


def test_a_coin_pool_label_is_found_as_by_each_coin() -> None:
    def long_way(label: str) -> bool:
        return any(label.startswith(c) and label[len(c):] in h._POOL_WORDS for c in h._COINS) or \
            any(label.endswith(c) and label[:-len(c)] in h._POOL_WORDS for c in h._COINS)

    labels = [c + w for c in h._COINS for w in h._POOL_WORDS] + [w + c for c in h._COINS for w in h._POOL_WORDS]
    labels += [f"{c}x{w}" for c in h._COINS for w in h._POOL_WORDS] + [*h._COINS, *h._POOL_WORDS, "", "pool"]
    for label in labels:
        assert h._pool_label(label) == long_way(label), label
    assert not h._pool_label("xmrxpool")  # a word between them is no glued pool name (near miss)


def test_a_gaming_name_is_only_ever_found_by_its_first_letter_as_written_or_folded() -> None:
    """`gaming_lure` skips the names whose first letter, as written and folded, is not the part's: none of its
    three tests can find such a name."""
    parts = [w for name in d._SC_MISSPELT for w in _misspellings(name)] + ["wikipedia", "rnicrosoft", "vvindows"]
    for p in parts:
        if len(p) < 6:
            continue
        for name in d._SC_MISSPELT:
            if p[0] != name[0] and d._fold(p)[:1] != d._fold(name)[:1]:
                assert not (d._one_off(p, name) or d._folded_off(p, name) or (
                    len(p) > len(name) and d._one_off(p[:len(name)], name))), (p, name)


def test_a_run_together_part_is_read_as_every_strong_lure_was_tried() -> None:
    def long_way(part: str) -> list[str]:
        for w in d._SC_STRONG:
            if len(w) >= 5 and part.startswith(w) and len(part) - len(w) >= 2 and w not in ("skins", "badge"):
                return [w]
        return []

    parts = [w + tail for w in d._SC_STRONG for tail in ("", "x", "shop", "ru")] + ["nitroshopru", "steamxyz", "ab"]
    for part in parts:
        if part in d._SC_WORDS or any(part[:i] in d._SC_WORDS and part[i:] in d._SC_WORDS
                                      for i in range(3, len(part) - 1)):
            continue  # (read as known words before the lures are tried)
        assert d._glued(part) == long_way(part), part
