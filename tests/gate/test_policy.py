import pytest

from gate.policy import PRESETS, PolicyError, default_policy, load_policy


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_load(preset):
    policy = default_policy(preset)
    assert policy.preset == preset


def test_kiosk_is_stricter_than_balanced():
    kiosk, balanced = default_policy("kiosk"), default_policy("balanced")
    assert kiosk.gate.kiosk and not balanced.gate.kiosk
    assert kiosk.gate.default_mode == "deny"


def test_user_file_overlays_tables_key_by_key(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('[gate]\nconfidence_threshold = 0.9\n\n[limits]\nmax_steps = 7\n')
    policy = load_policy(f)
    assert policy.gate.confidence_threshold == 0.9
    assert policy.limits.max_steps == 7
    assert policy.limits.max_errors == default_policy().limits.max_errors  # untouched keys keep the default


def test_preset_chosen_in_file(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('preset = "kiosk"\n')
    assert load_policy(f).preset == "kiosk"


@pytest.mark.parametrize(("text", "line", "needle"), [
    ("[gate]\nconfidence_threshold = 3\n", 2, "confidence_threshold"),
    ("[gate]\n\nbogus = 1\n", 3, "bogus"),
    ("[limits]\nmax_steps = \"ten\"\n", 2, "max_steps"),
    ('preset = "yolo"\n', 1, "unknown preset"),
    ("[gate\n", 1, "not valid TOML"),
])
def test_errors_name_file_key_and_line(tmp_path, text, line, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(PolicyError) as err:
        load_policy(f)
    msg = str(err.value)
    assert str(f) in msg and needle in msg
    assert err.value.line == line


def test_invalid_regex_is_reported(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('[gui]\nblocklist = ["(unclosed"]\n')
    with pytest.raises(PolicyError, match="not a valid regex"):
        load_policy(f)


def test_allow_rules_are_validated(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('[[allow]]\nid = "a"\ntypes = ["teleport"]\n')
    with pytest.raises(PolicyError, match="unknown action type"):
        load_policy(f)
    f.write_text('[[allow]]\nid = "a"\n')
    with pytest.raises(PolicyError, match="matches nothing"):
        load_policy(f)
    f.write_text('[[allow]]\nid = "a"\ntypes = ["click"]\n[[allow]]\nid = "a"\ntypes = ["key"]\n')
    with pytest.raises(PolicyError, match="duplicate"):
        load_policy(f)


def test_missing_file_is_a_policy_error(tmp_path):
    with pytest.raises(PolicyError, match="cannot read"):
        load_policy(tmp_path / "nope.toml")
