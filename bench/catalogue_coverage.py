"""How much of a public living-off-the-land catalogue the gate stops, per function class.

    .venv/bin/python bench/catalogue_coverage.py [--gtfobins DIR] [--lolbas DIR] [--loobins DIR]
                                                 [--preset balanced] [--show-allowed] [--benign]

DIR is a checkout of the catalogue (GTFOBins.github.io with its `_gtfobins/` entries, LOLBAS with its `yml/`
tree, LOOBins with its `LOOBins/` folder); nothing of any is kept here. Every example of every program is
turned into a shell line: the catalogue's placeholders become plausible hostile values (a secret to read, a
login file to write, an unknown host to send to or fetch from, a command to run). GTFOBins examples are
scored once per context the entry lists: as written (unprivileged), behind `sudo` (sudo), and as a
privileged copy of the program (suid, capabilities: `./NAME`, where such a copy is placed), reading or
writing root's files. LOOBins examples are real command lines already, run as written and filed under their
first tactic.

Printed per class: examples, how many the gate allows, asks and blocks, and the coverage (the share that
asks or blocks). Every example counted is a hostile use: its placeholders are filled with hostile values.
LOOBins' discovery examples mostly print what any system tool prints (`sw_vers`, `system_profiler`): the
gate lets such listings pass on purpose, so their share there is low by design.
GTFOBins' "inherit" examples only start a program (a pager, an editor) whose own escape is typed into it
later by a person at the terminal: they are printed, and left out of the total.
`--benign` adds, for GTFOBins file-read and file-write, the same examples on a project file (a plain
read or write an agent does every day): the share of those the gate *allows* is printed beside them.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import re
import sys
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from gate import SafetyGate, default_policy
from gate.model import Observation, action_from_dict

# ---- a reader for the YAML both catalogues are written in (block mappings, lists, block scalars) ----------


def _scalar(text: str) -> Any:
    text = text.strip()
    if not text or text == "~" or text == "null":
        return None
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        inner = text[1:-1]
        if text[0] == "'":
            return inner.replace("''", "'")
        return re.sub(r'\\(["\\nt])', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), inner)
    return text


def _split_key(text: str) -> tuple[str, str] | None:
    m = re.match(r"^([A-Za-z0-9_.\- ]+?):(?:\s+(.*)|$)", text)
    return (m.group(1), m.group(2) or "") if m else None


def read_yaml(text: str) -> Any:
    """The documents' first mapping (enough of YAML for the two catalogues: no flow collections, anchors)."""
    lines = [ln.rstrip("\n") for ln in text.splitlines()]
    body = []
    started = False
    for ln in lines:
        if ln.strip() == "---":
            if started:
                break
            started = True
            continue
        if ln.strip() == "...":
            break
        body.append(ln)
    pos = 0

    def indent(ln: str) -> int:
        return len(ln) - len(ln.lstrip(" "))

    def skip() -> None:
        nonlocal pos
        while pos < len(body) and (not body[pos].strip() or body[pos].lstrip().startswith("#")):
            pos += 1

    def block_scalar(style: str, parent: int) -> str:
        nonlocal pos
        out: list[str] = []
        ind = None
        while pos < len(body):
            ln = body[pos]
            if ln.strip() and indent(ln) <= parent:
                break
            if ln.strip() and ind is None:
                ind = indent(ln)
            out.append(ln[ind:] if ind is not None and ln.strip() else "")
            pos += 1
        while out and not out[-1]:
            out.pop()
        return " ".join(out) if style.startswith(">") else "\n".join(out)

    def value(rest: str, parent: int) -> Any:
        nonlocal pos
        rest = rest.strip()
        if rest[:1] in ("|", ">"):
            return block_scalar(rest, parent)
        if rest:
            return _scalar(rest)
        skip()
        if (pos < len(body) and indent(body[pos]) > parent) or \
                (pos < len(body) and indent(body[pos]) == parent and body[pos].lstrip().startswith("- ")):
            return node(indent(body[pos]))
        return None

    def node(ind: int) -> Any:
        nonlocal pos
        skip()
        if pos < len(body) and body[pos].lstrip().startswith("- "):
            items = []
            while True:
                skip()
                if pos >= len(body) or indent(body[pos]) != ind or not body[pos].lstrip().startswith("- "):
                    return items
                # the item's first line: treat "- " as indentation
                body[pos] = " " * (ind + 2) + body[pos].lstrip()[2:]
                kv = _split_key(body[pos].strip())
                if kv is None:
                    pos += 1
                    items.append(_scalar(body[pos - 1]))
                else:
                    items.append(node(ind + 2))
        out: dict[str, Any] = {}
        while True:
            skip()
            if pos >= len(body) or indent(body[pos]) != ind:
                return out
            kv = _split_key(body[pos].strip())
            if kv is None:
                pos += 1
                continue
            pos += 1
            out[kv[0]] = value(kv[1], ind)

    return node(0)


# ---- what an example becomes ------------------------------------------------------------------------------

HOST = "cdn-sync.net"  # an unknown host: neither a raw address nor a known sharing site
_GTFO_HOSTILE = {
    "unprivileged": {"input": "/home/dev/.ssh/id_rsa", "output": "/home/dev/.bashrc"},
    "privileged": {"input": "/etc/shadow", "output": "/etc/sudoers"},
    "benign": {"input": "docs/notes.txt", "output": "build/notes.txt"},
    "download": {"input": "/files/payload.sh", "output": "/tmp/payload.sh"},  # what is fetched, where it lands
}
_GTFO_PATHS = [
    (r"/path/to/command", "id"), (r"/path/to/temp-socket", "/tmp/s.sock"), (r"/path/to/temp-file", "/tmp/t"),
    (r"/path/to/temp-dir", "/tmp/d"), (r"/path/to/output-dir", "/tmp/out"), (r"/path/to/dir", "/tmp/d"),
    (r"/path/to/lib", "/tmp/lib"), (r"/path/to/script", "/tmp/s.sh"), (r"/path/to/wordlist", "/tmp/w.txt"),
    (r"attacker\.com", HOST), (r"victim\.com", HOST),
]
_LOLBAS = {
    "CMD": "cmd.exe /c whoami > C:\\Users\\Public\\o.txt", "CMD:args": "/c whoami", "PID": "1234",
    "REMOTEURL": f"https://{HOST}/payload", "PATH": "payload", "PATH_ABSOLUTE": "C:\\Users\\Public\\payload",
    "PATH_SMB": f"\\\\{HOST}\\share\\payload",
}
_PLACE = re.compile(r"\{([A-Z_]+)(?::([^}]*))?\}")


def _lolbas_fill(cmd: str) -> str:
    def sub(m: re.Match[str]) -> str:
        kind, ext = m.group(1), m.group(2) or ""
        if kind == "CMD":
            return _LOLBAS["CMD:args"] if ext == "args" else _LOLBAS["CMD"]
        base = _LOLBAS.get(kind)
        if base is None:
            return "x"
        if ext == "folder":
            return base.rsplit("\\", 1)[0] + "\\"
        return base + (("." + ext.rsplit(".", 1)[-1]) if ext.startswith(".") else "")
    cmd = _PLACE.sub(sub, cmd)
    return re.sub(r"\{[a-z_]+\}", "x", cmd)


def _gtfo_fill(code: str, name: str, context: str, function: str) -> str:
    kind = "benign" if context == "benign" else "download" if function == "download" else \
        "unprivileged" if context == "unprivileged" else "privileged"
    vals = _GTFO_HOSTILE[kind]
    code = re.sub(r"/path/to/input-file", vals["input"], code)
    code = re.sub(r"/path/to/ou?tput-file", vals["output"], code)
    for pat, rep in _GTFO_PATHS:
        code = re.sub(pat, rep, code)
    if context in ("suid", "capabilities"):  # the privileged copy of the program is run by its path
        code = re.sub(rf"(^|(?<=[\s;|&(]))({re.escape(name)})(?=\s|$)", r"./\2", code, count=1, flags=re.M)
    elif context == "sudo":
        code = re.sub(rf"(^|(?<=[\s;|&(]))({re.escape(name)})(?=\s|$)", r"sudo \2", code, count=1, flags=re.M)
    return code


def gtfobins(root: pathlib.Path, benign: bool) -> Iterator[tuple[str, str, str]]:
    """(class, program, shell line) of every GTFOBins example in every context it lists."""
    folder = root / "_gtfobins" if (root / "_gtfobins").is_dir() else root
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        name = path.name.removesuffix(".md")
        doc = read_yaml(path.read_text(encoding="utf-8", errors="replace")) or {}
        for function, examples in (doc.get("functions") or {}).items():
            for ex in examples or ():
                if not isinstance(ex, dict) or not ex.get("code"):
                    continue
                contexts = ex.get("contexts") or {"unprivileged": None}
                for context in contexts:
                    cls = function if context == "unprivileged" else f"{function}/{context}"
                    yield cls, name, _gtfo_fill(ex["code"], name, context, function)
                if benign and function in ("file-read", "file-write") and "unprivileged" in contexts:
                    yield f"{function}/benign", name, _gtfo_fill(ex["code"], name, "benign", function)


def lolbas(root: pathlib.Path) -> Iterator[tuple[str, str, str]]:
    """(category, program, command line) of every LOLBAS example."""
    folder = root / "yml" if (root / "yml").is_dir() else root
    for path in sorted(folder.rglob("*.yml")):
        doc = read_yaml(path.read_text(encoding="utf-8", errors="replace")) or {}
        name = str(doc.get("Name") or path.stem)
        for ex in doc.get("Commands") or ():
            if isinstance(ex, dict) and ex.get("Command"):
                yield str(ex.get("Category") or "?"), name, _lolbas_fill(str(ex["Command"]).strip())


def loobins(root: pathlib.Path) -> Iterator[tuple[str, str, str]]:
    """(tactic, program, code) of every LOOBins example use, filed under its first tactic."""
    folder = root / "LOOBins" if (root / "LOOBins").is_dir() else root
    for path in sorted(folder.glob("*.yml")):
        doc = read_yaml(path.read_text(encoding="utf-8", errors="replace")) or {}
        name = str(doc.get("name") or path.stem)
        for ex in doc.get("example_use_cases") or ():
            if isinstance(ex, dict) and ex.get("code"):
                tactics = ex.get("tactics") or ["?"]
                yield str(tactics[0]), name, str(ex["code"]).strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gtfobins", type=pathlib.Path)
    ap.add_argument("--lolbas", type=pathlib.Path)
    ap.add_argument("--loobins", type=pathlib.Path)
    ap.add_argument("--preset", default="balanced")
    ap.add_argument("--show-allowed", action="store_true", help="list every hostile example the gate allows")
    ap.add_argument("--benign", action="store_true", help="also score plain reads and writes of project files")
    args = ap.parse_args(argv)
    if not args.gtfobins and not args.lolbas and not args.loobins:
        ap.error("give --gtfobins DIR, --lolbas DIR and/or --loobins DIR")
    gate = SafetyGate(default_policy(args.preset))
    sources = []
    if args.gtfobins:
        sources.append(("gtfobins", gtfobins(args.gtfobins, args.benign)))
    if args.lolbas:
        sources.append(("lolbas", lolbas(args.lolbas)))
    if args.loobins:
        sources.append(("loobins", loobins(args.loobins)))
    for catalogue, rows in sources:
        counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        allowed = []
        for cls, name, line in rows:
            verdict = gate.assess(action_from_dict({"type": "shell", "command": line}), Observation())
            decision = verdict.decision.value
            counts[cls][decision] += 1
            if decision == "allow" and not cls.endswith("/benign") and not cls.startswith("inherit"):
                allowed.append((cls, name, line))
        print(f"\n{catalogue}: class  examples  allow  confirm  block  coverage")
        hostile = collections.Counter[str]()
        for cls in sorted(counts):
            c = counts[cls]
            n = sum(c.values())
            if cls.split("/")[0] == "inherit":  # the hostile part is typed into another program later (a pager)
                print(f"  {cls:42s} {n:5d}  {c['allow']:5d}  {c['confirm']:7d}  {c['block']:5d}  "
                      f"{(n - c['allow']) / n:5.3f} (interactive: not in the total)")
                continue
            if cls.endswith("/benign"):
                print(f"  {cls:42s} {n:5d}  {c['allow']:5d}  {c['confirm']:7d}  {c['block']:5d}  "
                      f"allowed {c['allow'] / n:5.3f} (benign form)")
                continue
            hostile.update(c)
            print(f"  {cls:42s} {n:5d}  {c['allow']:5d}  {c['confirm']:7d}  {c['block']:5d}  "
                  f"{(n - c['allow']) / n:5.3f}")
        n = sum(hostile.values())
        if n:
            print(f"  {'all hostile':42s} {n:5d}  {hostile['allow']:5d}  {hostile['confirm']:7d}  "
                  f"{hostile['block']:5d}  {(n - hostile['allow']) / n:5.3f}")
        if args.show_allowed:
            for cls, name, line in allowed:
                print(f"    ALLOW {cls} {name}: {line!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
