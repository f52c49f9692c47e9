"""A sign-in page that speaks for a brand its host does not belong to, in any script: the brand's name in
Japanese, Chinese or Korean counts as in English, password fields are known in other languages, and a
password or card number typed there blocks. Our own examples: brands' own pages and pages that name no
brand only ask."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def typed(label: str, text: str, title: str, url: str):
    action = action_from_dict({"type": "type", "text": text, "target": {"label": label}})
    return GATE.assess(action, Observation(app="Google Chrome", window_title=title, url=url))


@pytest.mark.parametrize(("label", "title", "url"), [
    ("パスワード", "楽天カード ログイン", "https://member.card-safety-jp.net/login"),
    ("暗証番号", "ゆうちょ銀行 本人確認", "https://yucho.kakunin-online.com/auth"),
    ("密码", "支付宝 登录", "https://zfb-anquan.top/login"),
    ("비밀번호", "네이버 로그인", "https://nid-login.help-center.site/"),
    ("Password", "Sign in to your PayPal account", "https://accounts.orbitmail-svc.com/"),
    ("Passwort", "PayPal Anmeldung", "https://secure.kundenservice-center.de/"),
])
def test_a_password_on_a_page_titled_for_a_brand_elsewhere_blocks(label, title, url):
    a = typed(label, "Maple#Tree2026", title, url)
    assert a.decision is Decision.BLOCK, a.rules
    assert "block.typed.password-on-impostor-page" in a.rules


def test_a_card_number_on_a_page_titled_for_a_card_issuer_elsewhere_blocks():
    a = typed("カード番号", "4111 1111 1111 1111", "エポスカード ご本人様確認", "https://epos-check.shop-center.jp/")
    assert a.decision is Decision.BLOCK
    assert "block.typed.payment-on-lure-page" in a.rules


def test_a_login_name_there_asks():
    a = typed("ログインID", "hanako.sato", "マネックス証券 ログイン", "https://member-monex.secure-site.cn/")
    assert a.decision is not Decision.ALLOW


@pytest.mark.parametrize(("label", "title", "url"), [
    ("パスワード", "楽天 ログイン", "https://grp01.id.rakuten.co.jp/rms/nid/login"),
    ("パスワード", "ログイン", "https://portal.my-company.co.jp/login"),
    ("Passwort", "Anmelden", "https://intranet.beispiel-firma.de/login"),
    ("비밀번호", "네이버 : 로그인", "https://nid.naver.com/nidlogin.login"),
])
def test_a_password_on_the_brands_own_page_or_a_plain_sign_in_asks(label, title, url):
    a = typed(label, "Maple#Tree2026", title, url)
    assert a.decision is Decision.CONFIRM, a.rules
    assert "confirm.gui.credential-field" in a.rules


@pytest.mark.parametrize(("label", "text", "title", "url"), [
    ("検索", "楽天 ポイント 使い方", "楽天市場 - Yahoo!検索", "https://search.yahoo.co.jp/search"),
    ("件名", "アマゾンの注文について", "新規メッセージ", "https://mail.example.co.jp/compose"),
    ("Kommentar", "Das Passwort-Feld sollte länger sein", "Issue #12 · acme/app", "https://github.com/acme/app/issues/12"),
])
def test_brand_names_and_password_words_in_ordinary_text_pass(label, text, title, url):
    assert typed(label, text, title, url).decision is Decision.ALLOW
