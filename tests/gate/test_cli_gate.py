import json
import subprocess
import sys

import pytest

from app.cli.main import main


def run(args, stdin="", capsys=None, monkeypatch=None):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_check_writes_one_line_per_input_line_in_order(capsys, monkeypatch):
    lines = "\n".join([
        json.dumps({"type": "shell", "command": "rm -rf /"}),
        "not json",
        json.dumps({"type": "click", "x": "1", "y": 2}),
        json.dumps({"type": "wait"}),
        json.dumps({"action": {"type": "key", "keys": ["ctrl", "s"]}, "observation": {"app": "gedit"}}),
    ]) + "\n"
    code, out, _ = run(["check"], lines, capsys, monkeypatch)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and len(rows) == 5  # every line answered; the bad ones make the exit status 1
    assert rows[0]["decision"] == "block" and rows[0]["rules"] and rows[0]["risk"] in ("high", "critical")
    assert rows[1]["error"]["code"] == "bad_request" and rows[1]["error"]["line"] == 2
    assert "action.x" in rows[2]["error"]["message"]
    assert rows[3] == {"decision": "allow", "rules": [], "reason": "no rule applies", "risk": "low"}
    assert rows[4]["decision"] == "allow"


def test_check_exit_code_says_whether_every_line_was_good(capsys, monkeypatch):
    good = json.dumps({"type": "wait"}) + "\n"
    assert run(["check"], good * 2, capsys, monkeypatch)[0] == 0
    assert run(["check"], good + "{}\n", capsys, monkeypatch)[0] == 1
    assert run(["check", "--strict"], "{}\n", capsys, monkeypatch)[0] == 1  # the old flag still works
    assert run(["check"], "[1]\n", capsys, monkeypatch)[0] == 1


def test_an_allow_reads_as_a_sentence(capsys, monkeypatch):
    _, out, _ = run(["check"], json.dumps({"type": "wait"}) + "\n", capsys, monkeypatch)
    assert json.loads(out)["reason"] == "no rule applies"


def test_rules_and_explain_agree_on_risk(capsys, monkeypatch):
    from gate.rules import BY_ID

    code, out, _ = run(["rules", "--json"], "", capsys, monkeypatch)
    listed = {r["id"]: r["risk"] for r in json.loads(out)}
    assert code == 0 and listed == {r.id: r.risk.label for r in BY_ID.values() if r.id in listed}
    # an action whose effect raises the risk above the rule's own: explain names both, consistently
    action = json.dumps({"type": "shell", "command": "git push --force origin main"})
    _, out, _ = run(["explain", action, "--json"], "", capsys, monkeypatch)
    data = json.loads(out)
    fired = [s for s in data["trace"] if s["outcome"] == "fired" and s["rule_risk"]]
    assert fired and all(s["rule_risk"] == listed[s["rule"]] for s in fired)
    _, text, _ = run(["explain", action], "", capsys, monkeypatch)
    risk_line = next(line for line in text.splitlines() if line.startswith("risk: "))
    assert risk_line.startswith(f"risk: {data['risk']}")
    for s in fired:
        assert f"{s['rule']} {listed[s['rule']]}" in risk_line
    _, text, _ = run(["rules"], "", capsys, monkeypatch)
    assert text.splitlines()[0].split()[:2] == ["RULE", "RISK"]


def test_check_uses_preset(capsys, monkeypatch):
    code, out, _ = run(["check", "--preset", "kiosk"], '{"type": "click", "x": 1, "y": 1}\n', capsys, monkeypatch)
    assert json.loads(out)["decision"] == "block"


def test_explain_prints_a_readable_trace(capsys, monkeypatch):
    code, out, _ = run(["explain", '{"type": "shell", "command": "rm -rf /"}'], "", capsys, monkeypatch)
    assert code == 0
    assert "decision: BLOCK" in out and "precedence:" in out and "✗" in out


def test_explain_shows_the_derived_effects(capsys, monkeypatch):
    action = json.dumps({"type": "shell", "command": "cat notes.txt; zorblax > out.txt"})
    code, out, _ = run(["explain", action], "", capsys, monkeypatch)
    assert code == 0 and "effects (resources/programs.toml):" in out
    assert "cat notes.txt: read" in out and "unknown program zorblax" in out
    code, out, _ = run(["explain", "--json", action], "", capsys, monkeypatch)
    rows = {r["command"]: r["effects"] for r in json.loads(out)["effects"]}
    assert rows["cat notes.txt"] == ["read"] and any(e == "write out.txt" for e in rows["zorblax"])


def test_explain_reads_stdin_and_reports_bad_input(capsys, monkeypatch):
    code, out, err = run(["explain"], '{"type": "wait", "seconds": "x"}', capsys, monkeypatch)
    assert code == 2 and "action.seconds" in err


def test_policy_validate_and_show(tmp_path, capsys, monkeypatch):
    good = tmp_path / "good.toml"
    good.write_text("[limits]\nmax_steps = 9\n")
    bad = tmp_path / "bad.toml"
    bad.write_text("[limits]\nmax_stepz = 9\n")
    assert run(["policy", "validate", str(good)], "", capsys, monkeypatch)[0] == 0
    code, _, err = run(["policy", "validate", str(bad)], "", capsys, monkeypatch)
    assert code == 1 and f"{bad}:2" in err and "max_stepz" in err
    code, out, _ = run(["policy", "show", "--policy", str(good)], "", capsys, monkeypatch)
    assert code == 0 and "max_steps = 9" in out and "[gate]" in out
    import tomllib

    tomllib.loads(out)  # what `policy show` prints is itself a valid policy document


def test_console_script_runs():
    r = subprocess.run([sys.executable, "-m", "app.cli.main", "rules"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0


@pytest.mark.parametrize("args", [["check", "--preset", "nope"], ["policy"]])
def test_bad_usage_exits_nonzero(args, capsys, monkeypatch):
    with pytest.raises(SystemExit) as err:
        run(args, "", capsys, monkeypatch)
    assert err.value.code != 0


def test_policy_validate_lists_every_error_and_warns_on_wildcard_allow_rules(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad.toml"
    bad.write_text('[limits]\nmax_stepz = 9\nactions_per_minute = "many"\n\n[gate]\nmodes = { shel = "ask" }\n\n'
                   '[[allow]]\nid = "ok-rule"\ncommand = "ls"\n\n[[allow]]\nid = "Bad Id"\ncommand = "ls"\n')
    code, _, err = run(["policy", "validate", str(bad)], "", capsys, monkeypatch)
    assert code == 1
    assert f"{bad}:2" in err and "max_stepz" in err  # each mistake, with its line
    assert f"{bad}:3" in err and "actions_per_minute" in err
    assert "unknown action type 'shel'" in err
    assert f"{bad}:13" in err and "allow[1].id" in err
    assert "4 error(s)" in err
    wild = tmp_path / "wild.toml"
    wild.write_text('[[allow]]\nid = "any-shell"\ntypes = ["shell"]\ncommand = "*"\n\n'
                    '[[allow]]\nid = "git-status"\ntypes = ["shell"]\ncommand = "git status*"\n')
    code, out, err = run(["policy", "validate", str(wild)], "", capsys, monkeypatch)
    assert code == 0 and "1 warning(s)" in out  # valid, but a person should know
    assert "any-shell" in err and "matches everything" in err and "git-status" not in err


def test_policy_validate_warns_on_a_host_rule_whose_subdomains_are_other_peoples_sites(tmp_path, capsys,
                                                                                      monkeypatch):
    shared = tmp_path / "shared.toml"
    shared.write_text('[[allow]]\nid = "bucket"\ntypes = ["navigate"]\nhost = "s3.amazonaws.com"\n\n'
                      '[[allow]]\nid = "pages"\ntypes = ["navigate"]\nhost = "me.github.io"\n\n'
                      '[[allow]]\nid = "exact"\ntypes = ["navigate"]\nhost = "me.github.io"\nsubdomains = false\n\n'
                      '[[allow]]\nid = "docs"\ntypes = ["navigate"]\nhost = "docs.example.org"\n')
    code, out, err = run(["policy", "validate", str(shared)], "", capsys, monkeypatch)
    assert code == 0 and "2 warning(s)" in out
    assert "(bucket): host = 's3.amazonaws.com' also allows every subdomain" in err
    assert "(pages)" in err and "'github.io'" in err and "subdomains = false" in err
    assert "(exact)" not in err and "(docs)" not in err  # the exact host, and a host of one owner


def test_check_of_a_click_that_names_no_target_asks(capsys, monkeypatch):
    lines = "\n".join(json.dumps(a) for a in ({"type": "click", "x": 5, "y": 5},
                                              {"type": "click", "x": 5, "y": 5, "target": {"label": "Next"}}))
    _, out, _ = run(["check"], lines + "\n", capsys, monkeypatch)
    first, second = (json.loads(x) for x in out.splitlines())
    assert first["decision"] == "confirm" and first["rules"] == ["confirm.gui.unreadable-target"]
    assert second["decision"] == "allow"
