"""A bare label or a switch state on a settings surface, read from the window that holds it: remote access, a
protection's panel, the users page, a browser's install prompts, hidden preferences and saved logins, a bank's
limits and a card's permanent block, in several languages."""

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def rules_of(label: str, title: str = "", app: str = "", url: str = "") -> tuple[str, ...]:
    a = GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}}),
                    Observation(url=url, window_title=title, app=app))
    return a.rules


# -- remote access switched on, a request to control the screen accepted --------------------------------------


@pytest.mark.parametrize(("label", "title", "app"), [
    ("On", "Settings — System — Remote Desktop", "Settings"),
    ("Aan", "Instellingen — Bureaublad op afstand", "Instellingen"),
    ("Activado", "Configuración — Escritorio remoto", "Configuración"),
    ("Remote Login", "Settings — Sharing — Remote Desktop", "gnome-control-center"),
    ("Zdalne sterowanie", "Ustawienia — Pulpit zdalny", "gnome-control-center"),
    ("Удалённый вход", "Параметры — Удалённый рабочий стол", "gnome-control-center"),
    ("画面共有", "設定 — リモートデスクトップ", "gnome-control-center"),
    ("允许", "TeamViewer — 传入的连接请求", "TeamViewer"),
    ("Accept", "AnyDesk — Incoming connection request from 'IT Helpdesk'", "AnyDesk"),
    ("Autoriser", "Demande de contrôle — « Support » souhaite contrôler votre écran", "FaceTime"),
    ("Allow control", "FaceTime — call with +1 555 0100", "FaceTime"),
    ("Control my screen", "", "Screen Sharing"),
    ("Take full control", "Quick Assist", "QuickAssist"),
    ("Allow", "Quick Assist — screen sharing", "QuickAssist"),
])
def test_remote_access_switched_on_asks(label, title, app):
    assert "confirm.gui.remote-access-on" in rules_of(label, title, app)


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Off", "Settings — System — Remote Desktop", "Settings"),
    ("Uitschakelen", "Instellingen — Bureaublad op afstand", "Instellingen"),
    ("Don't Allow", "Remote control request — Dad wants to control your screen", "FaceTime"),
    ("Ablehnen", "AnyDesk — Eingehende Verbindungsanfrage", "AnyDesk"),
    ("Request control", "FaceTime — screen sharing from Dad", "FaceTime"),
    ("Media sharing", "Settings — Sharing", "gnome-control-center"),
    ("On", "Settings — Bluetooth", "Settings"),
    ("View screen", "Quick Assist", "QuickAssist"),
    ("Take a picture", "Camera", "Camera"),
])
def test_remote_access_near_misses_pass(label, title, app):
    assert "confirm.gui.remote-access-on" not in rules_of(label, title, app)


# -- a protection's panel turned off ------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "title"), [
    ("Off", "Public network — Microsoft Defender Firewall"),
    ("Uit", "Realtimebeveiliging — Windows-beveiliging"),
    ("Wyłącz", "Zapora systemu Windows — sieć prywatna"),
    ("Desactivado", "Protección en tiempo real"),
])
def test_protection_panel_off_asks(label, title):
    assert "confirm.gui.protection-window-off" in rules_of(label, title, "Windows Security")


@pytest.mark.parametrize(("label", "title"), [
    ("On", "Public network — Microsoft Defender Firewall"),
    ("Off", "Settings — Bluetooth"),
    ("Cancel", "Windows Security Alert — the firewall has blocked some features of this app"),
])
def test_protection_panel_near_misses_pass(label, title):
    assert "confirm.gui.protection-window-off" not in rules_of(label, title, "Windows Security")


# -- an administrator made on the users page ------------------------------------------------------------------


@pytest.mark.parametrize(("label", "title"), [
    ("Administrator", "Settings — Users — guest"),
    ("Administrateur", "Paramètres — Utilisateurs — invité"),
    ("Beheerder", "Instellingen — Gebruikers"),
    ("管理者", "設定 — ユーザー"),
])
def test_admin_account_type_asks(label, title):
    assert "confirm.gui.admin-account-type" in rules_of(label, title, "gnome-control-center")


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Standard", "Settings — Users — guest", ""),
    ("Administrator", "Settings — Display", ""),
    ("Administrator", "Users", "https://intranet.example/users"),
])
def test_admin_account_type_near_misses_pass(label, title, url):
    assert "confirm.gui.admin-account-type" not in rules_of(label, title, "gnome-control-center", url)


# -- a browser's add-on installs ---------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Add", "Add Dark Reader?", "https://addons.mozilla.org/en-US/firefox/addon/darkreader/"),
    ("Enable", "Software installation is currently disabled.", ""),
    ("Continue installation", "This site would like to install an add-on", "https://downloads.example.net/get"),
    ("Installieren", "Diese Website möchte ein nicht verifiziertes Add-on installieren", ""),
    ("Load unpacked", "Developer mode", "chrome://extensions/"),
    ("Charger l’extension non empaquetée", "Extensions", "chrome://extensions/"),
])
def test_addon_install_asks(label, title, url):
    assert "confirm.gui.addon-install" in rules_of(label, title, "Firefox", url)


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Cancel", "This site would like to install an add-on", ""),
    ("Don't allow", "Allow an unknown site to install an add-on?", ""),
    ("Remove", "Extensions", "chrome://extensions/"),
    ("Add", "Add contact", "https://contacts.example.com/new"),
])
def test_addon_install_near_misses_pass(label, title, url):
    assert "confirm.gui.addon-install" not in rules_of(label, title, "Firefox", url)


# -- hidden preferences and saved logins --------------------------------------------------------------------


def test_security_pref_toggled_asks():
    assert "confirm.gui.hidden-pref-toggle" in rules_of("Toggle", "security.tls.version.min", "Firefox",
                                                        "about:config")
    assert "confirm.gui.hidden-pref-toggle" in rules_of("Basculer", "browser.safebrowsing.malware.enabled",
                                                        "Firefox", "about:config")


def test_security_pref_in_the_page_filter_asks():
    assert "confirm.gui.hidden-pref-toggle" in rules_of("Toggle", "Advanced Preferences", "Firefox",
                                                        "about:config?filter=xpinstall.signatures.required")
    assert "confirm.gui.hidden-pref-toggle" not in rules_of("Toggle", "Advanced Preferences", "Firefox",
                                                            "about:config?filter=browser.tabs.warnOnClose")
    assert "confirm.gui.hidden-pref-toggle" not in rules_of("Toggle", "Advanced Preferences", "Firefox",
                                                            "about:config?filter=extensions.formautofill.addresses"
                                                            ".enabled")


def test_other_prefs_and_copies_pass():
    assert "confirm.gui.hidden-pref-toggle" not in rules_of("Toggle", "browser.tabs.closeWindowWithLastTab",
                                                            "Firefox", "about:config")
    assert "confirm.gui.hidden-pref-toggle" not in rules_of("Copy name", "security.tls.version.min", "Firefox",
                                                            "about:config")


@pytest.mark.parametrize(("label", "url"), [
    ("Remove All", "about:logins"),
    ("Alle entfernen", "about:logins"),
    ("Delete", "chrome://password-manager/passwords"),
])
def test_saved_logins_removed_asks(label, url):
    assert "confirm.gui.saved-logins-removed" in rules_of(label, "Passwords", "Firefox", url)


@pytest.mark.parametrize(("label", "url"), [
    ("Copy", "about:logins"),
    ("Remove", "about:addons"),
])
def test_saved_logins_near_misses_pass(label, url):
    assert "confirm.gui.saved-logins-removed" not in rules_of(label, "Passwords", "Firefox", url)


# -- a bank's limits and a card's permanent block -----------------------------------------------------------


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Increase daily limit", "Cards", "https://bank.example/cards"),
    ("Limite erhöhen", "", "https://bank.example/konto"),
    ("Confirm", "New daily transfer limit: 15,000", "https://bank.example/settings/limits"),
    ("Dalej", "", "https://bank.example/ustawienia/limity"),
    ("Valider", "Modifier le plafond de paiement", ""),
])
def test_limit_change_asks(label, title, url):
    assert "confirm.gui.bank-limit-change" in rules_of(label, title, "", url)


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Transfer limits", "", "https://bank.example/settings"),
    ("Continue", "Checkout", "https://shop.example/cart"),
    ("Limits for card payments", "", "https://bank.example/settings/limits"),
])
def test_limit_near_misses_pass(label, title, url):
    assert "confirm.gui.bank-limit-change" not in rules_of(label, title, "", url)


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Block card", "Block card permanently — reason: stolen", ""),
    ("Mastercard •••• 1234", "Report a lost card", "https://bank.example/cards/block"),
    ("Bestätigen", "Karte dauerhaft sperren", ""),
    ("Confirmer", "Faire opposition sur ma carte", ""),
])
def test_card_end_step_asks(label, title, url):
    assert "confirm.gui.card-end-step" in rules_of(label, title, "", url)


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Freeze card", "Card •••• 1234", ""),
    ("Karte sperren", "Karte •••• 1234", ""),
    ("Confirm", "Order a new card", ""),
])
def test_card_end_near_misses_pass(label, title, url):
    assert "confirm.gui.card-end-step" not in rules_of(label, title, "", url)


# -- a request to control the screen from a self-styled support caller -------------------------------------


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Accept", "TeamViewer — incoming connection request from 'Microsoft Tech Support'", "TeamViewer"),
    ("Erlauben", "Anfrage für Remote-Steuerung — „Unbekannt (+49 30 1234567)“ möchte deinen Bildschirm steuern",
     "FaceTime"),
    ("Aceptar", "Solicitud de conexión entrante de 'Soporte técnico'", "AnyDesk"),
])
def test_control_handed_to_a_support_caller_blocks(label, title, app):
    assert "block.gui.remote-control-stranger" in rules_of(label, title, app)


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Accept", "AnyDesk — incoming connection request from 'Grandma laptop'", "AnyDesk"),
    ("Decline", "TeamViewer — incoming connection request from 'Microsoft Tech Support'", "TeamViewer"),
    ("On", "Settings — Remote Desktop", "Settings"),
])
def test_known_callers_and_refusals_do_not_block(label, title, app):
    assert "block.gui.remote-control-stranger" not in rules_of(label, title, app)


def test_a_way_in_turned_off_passes_the_settings_check():
    got = rules_of("Off", "Settings — System — Remote Desktop", "Settings")
    assert "confirm.gui.security-setting" not in got and "confirm.gui.remote-access-on" not in got
    assert "confirm.gui.remote-access-on" in rules_of("On", "Settings — System — Remote Desktop", "Settings")


# -- a card's block lifted on a look-alike of the bank's site ------------------------------------------------


def test_card_unblock_on_a_lookalike_host_blocks():
    a = GATE.assess(action_from_dict({"type": "navigate", "url": "https://sparkasse-kartensperre-info.com/"}),
                    Observation())
    assert a.decision.value == "block", a.rules
    b = GATE.assess(action_from_dict({"type": "navigate", "url": "https://www.sparkasse.de/kartensperre"}),
                    Observation())
    assert b.decision.value != "block", b.rules


def test_connecting_out_and_other_limits_pass():
    assert "confirm.gui.remote-access-on" not in rules_of("Connect", "Remote Desktop Connection", "mstsc.exe")
    assert "confirm.gui.bank-limit-change" not in rules_of("Done", "Screen Time — App Limits", "Settings")
    assert "confirm.gui.bank-limit-change" not in rules_of("Save", "Rate limits",
                                                           url="https://console.example.com/api/limits")


def test_a_bare_limit_on_a_banks_page_commits():
    assert "confirm.gui.bank-limit-change" in rules_of("Weiter", "", url="https://banking.example.de/karten/limit")
    assert "confirm.gui.addon-install" in rules_of("Add extension", "", url="https://store.example/detail/x")


@pytest.mark.parametrize(("label", "title"), [
    ("Allow from this source", "Install unknown apps — Files"),
    ("Permitir desde esta fuente", "Instalar apps desconocidas — Chrome"),
    ("Anywhere", "Apps — Choose where to get apps"),
])
def test_installs_from_anywhere_ask(label, title):
    assert "confirm.gui.addon-install" in rules_of(label, title, "Settings")


def test_the_store_only_choice_passes():
    assert "confirm.gui.addon-install" not in rules_of("The Microsoft Store only", "Apps — Choose where to get apps",
                                                       "Settings")


def test_off_on_a_setting_named_for_turning_off_passes():
    assert "confirm.gui.protection-window-off" not in rules_of("Disabled", "Turn off real-time protection",
                                                               "gpedit.msc")
