"""Buttons that raise rights or keep a permission for good (`[consequence.elevation]` of resources/cues.toml),
a confirmed change of an account's credentials, and the false-flag class of replies to an invitation.
Our own labels, written from how elevation prompts, permission dialogs and calendar invitations read."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str | None = None):
    data: dict = {"type": "click", "x": 1, "y": 1, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data))


ELEVATING = [
    "Run the installer as administrator", "Run program as admin", "Run with elevated privileges", "Always allow",
    "Always trust this developer", "Grant administrator privileges", "Give the helper root access",
    "Allow it to make changes to this PC", "Turn on Full Disk Access",
    # other languages
    "Als Administrator ausführen", "Immer zulassen", "Exécuter en tant qu'administrateur", "Toujours autoriser",
    "Ejecutar como administrador", "Permitir siempre", "Executar como administrador", "Esegui come amministratore",
    "Uitvoeren als administrator", "Запустить от имени администратора", "以管理员身份运行", "始终允许",
    "管理者として実行", "常に許可", "관리자 권한으로 실행",
]


@pytest.mark.parametrize("label", ELEVATING)
def test_elevating_buttons_ask(label):
    a = click(label)
    assert a.decision is Decision.CONFIRM, (label, a.rules)
    assert "confirm.gui.consequential" in a.rules


# near misses: running, trusting or "always" that raise nothing
PLAIN_RUN = ["Run", "Run tests", "Run all cells", "Run workflow", "Run administrator report", "Admin settings",
             "Always show bookmarks bar", "Always ask", "Don't allow", "Run query as table"]


@pytest.mark.parametrize("label", PLAIN_RUN)
def test_plain_run_and_always_buttons_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


CREDENTIAL_CHANGE = [
    "Confirm the password change", "Save email update", "Complete passcode reset", "Yes, PIN change",
    "Passwortänderung bestätigen", "Confirmer la modification du mot de passe", "Confirmar cambio de contraseña",
    "Confirmar alteração de senha", "Подтвердить смену пароля", "确认更改密码", "メールアドレスの変更を確定",
]


@pytest.mark.parametrize("label", CREDENTIAL_CHANGE)
def test_confirming_a_credential_change_asks(label):
    a = click(label)
    assert a.decision is Decision.CONFIRM, (label, a.rules)


@pytest.mark.parametrize("label", ["Password change history", "Email update preferences", "Learn about PIN reset"])
def test_pages_about_credential_changes_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


RSVP = ["Accept the meeting invite", "Accept invitation", "Decline meeting", "Accept event",
        "Tentatively accept meeting", "Accept team invitation", "Einladung annehmen", "Accepter l'invitation",
        "Aceptar invitación", "Aceitar convite", "Принять приглашение", "接受会议邀请"]


@pytest.mark.parametrize("label", RSVP)
def test_replying_to_an_invitation_is_allowed(label):
    a = click(label, "https://calendar.example.org/event/4411")
    assert a.decision is Decision.ALLOW, (label, a.rules)


# near misses: what an "Accept" commits to when it is not a reply
COMMITTING_ACCEPT = ["Accept offer", "Accept job offer", "Accept terms and pay", "Accept transfer",
                     "Accept repository transfer", "Accept payment request", "Accept", "Accept and send invitation"]


@pytest.mark.parametrize("label", COMMITTING_ACCEPT)
def test_accepting_an_offer_or_a_transfer_still_asks(label):
    assert click(label).decision is Decision.CONFIRM, label


# a permission prompt's grant, in other languages: the same as English "Allow"
PERMISSION_GRANTS = ["Erlauben", "Zugriff auf alle Dateien erlauben", "Alle Berechtigungen erlauben", "Autoriser",
                     "Permitir acceso a todos los archivos", "Permitir acesso a todos os arquivos",
                     "Разрешить доступ ко всем файлам", "允许访问所有文件", "許可", "Consenti", "허용",
                     "Grant all permissions", "Allow access to all your files", "Allow notifications from all sites"]


@pytest.mark.parametrize("label", PERMISSION_GRANTS)
def test_granting_permissions_asks_in_every_language(label):
    assert click(label).decision is Decision.CONFIRM, label


# near misses: consent to cookies is a site's tracking, not access to the machine or an account
COOKIE_CONSENT = ["Accept all cookies", "Allow all cookies", "Alle Cookies akzeptieren", "Accepter tous les cookies",
                  "Aceptar todas las cookies", "Permitir cookies", "Autoriser les cookies", "Erlaubte Dateitypen"]


@pytest.mark.parametrize("label", COOKIE_CONSENT)
def test_cookie_consent_and_lookalike_words_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


def click_in(label: str, title: str):
    action = action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}})
    return GATE.assess(action, Observation(window_title=title))


@pytest.mark.parametrize(("label", "title"), [
    ("Yes", "User Account Control"), ("Yes", "Benutzerkontensteuerung"),
    ("Yes", "Do you want to allow this app to make changes to your device?"), ("OK", "Authentication Required"),
    ("Continue", "Installer wants to make changes"), ("OK", "Allow “Notes Sync” to access all files?"),
    ("Yes", "Grant full disk access to the backup tool?"),
])
def test_a_bare_yes_in_an_elevation_or_access_dialog_asks(label, title):
    a = click_in(label, title)
    assert a.decision is Decision.CONFIRM and "confirm.gui.consequential" in a.rules, (label, title, a.rules)


# near misses: the same answers in dialogs that grant nothing
@pytest.mark.parametrize(("label", "title"), [
    ("OK", "Inbox - Mail"), ("Continue", "Accept all cookies?"), ("OK", "System Settings"), ("Yes", "Save changes?"),
])
def test_a_bare_yes_elsewhere_is_judged_by_its_label(label, title):
    assert click_in(label, title).decision is Decision.ALLOW, (label, title)
