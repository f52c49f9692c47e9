"""Which spare keycodes hold which characters while xdotool types (app/execute/keymap.py): pure parts."""

from app.execute.keymap import keysym_of, plan


def test_latin1_keysyms_are_the_code_point_and_others_are_offset():
    assert keysym_of("a") == 0x61
    assert keysym_of("é") == 0xE9
    assert keysym_of("€") == 0x010020AC
    assert keysym_of("✓") == 0x01002713


def test_only_missing_characters_go_on_empty_keycodes_and_one_stays_free():
    # keycodes 8..13: 8 holds 'a', 9 and 11..13 are empty, 10 holds 'é'
    keymap = [(0x61, 0x41), (0, 0), (0xE9, 0xC9), (0, 0), (0, 0), (0, 0)]
    got = plan(keymap, 8, [0xE9, 0x010020AC, 0x010020AC, 0x01002713, 0xF1])
    assert got == {9: 0x010020AC, 11: 0x01002713, 12: 0xF1}  # é is there already; 13 stays free for xdotool


def test_with_one_empty_keycode_nothing_is_held():
    assert plan([(0x61,), (0,)], 8, [0xE9]) == {}


def test_without_a_display_nothing_is_held_and_typing_goes_on(monkeypatch):
    from app.execute.keymap import held

    monkeypatch.delenv("DISPLAY", raising=False)
    with held("café") as count:
        assert count == 0
