"""Clicks by application family, second pass: cloud consoles, identity administration, a phone's and a desktop's
own settings pages, sign-up forms, ride and courier apps, exports and records sent outside, and a browser's own
warning and settings pages. Per family, labels that ask and their harmless neighbours on the same page. The
vocabulary is data (`[consequence.*]`, `[interstitial.*]`, `[context.*]` and the page-bound verbs of `[parts]` in
resources/cues.toml); these are our own examples of each class, written from the families' help pages."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.consequence import consequence
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str = "", title: str = ""):
    data: dict = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title))


# family → (a page of that family, labels that commit, harmless labels beside them)
FAMILIES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "cloud console": ("https://console.cloud.google.com/iam-admin/settings",
                      ("Shut down this project", "Turn off block all public access", "Open port 5432 to anywhere",
                       "Allow all inbound traffic", "Anywhere-IPv4"),
                      ("IAM", "Service accounts", "Quotas", "Refresh", "Project settings", "Learn more")),
    "cloud keys page": ("https://console.aws.amazon.com/iam/home#/security_credentials",
                        ("Create key", "Create new key"),
                        ("Access keys", "Cancel", "Learn more", "Refresh")),
    "identity admin": ("https://admin.example-idp.com/admin/users/42",
                       ("Send password reset", "Force password reset", "Add domain-wide delegation",
                        "Grant admin consent", "Trust this app for all users"),
                       ("User details", "Groups", "Licenses", "Security", "Back to users")),
    "chat": ("https://chat.example.com/client/T1/C2",
             ("Invite members to workspace", "Add users"),
             ("Add people to this channel", "Add members to the conversation", "Add people to the huddle",
              "Threads", "Channel details")),
    "mail filters": ("https://mail.example.com/mail/u/0/#settings/filters",
                     ("Forward it to", "Forward a copy of all incoming messages"),
                     ("Filters and blocked addresses", "Cancel", "Back", "Search mail")),
    "exports": ("https://workspace.example.com/admin/export",
                ("Begin data export", "Request export", "Start full export now",
                 "Send these records to a third party", "Upload the report to an external FTP server"),
                ("Export settings", "Learn more", "Cancel", "Export as PDF")),
    "publishing": ("https://notes.example.com/page/plans",
                   ("Share to web", "Publish to web"),
                   ("Share", "Copy link", "Preview", "Page history")),
    "rides": ("https://rides.example.app/ride",
              ("Request a ride", "Confirm pickup", "Book a taxi now", "Call a cab"),
              ("Set pickup location", "Choose destination", "Ride options", "Back", "Request $18 from friends",
               "Call driver", "Message driver")),
    "courses": ("https://learn.example.org/learn/statistics",
                ("Enroll now", "Enroll for free", "Enroll in this course", "Jetzt einschreiben",
                 "S'inscrire au cours", "Inscribirme gratis"),
                ("Syllabus", "Instructors", "Reviews", "Registration", "Sign up", "Register", "Create account")),
    "sign-up form": ("https://app.example.com/signup",
                     ("Sign up", "Create account", "Agree and join", "Konto erstellen", "Créer un compte"),
                     ("Sign in instead", "Back", "Show password", "Terms of service")),
    "code host settings": ("https://git.example.com/acme/api/settings",
                           ("Change repository visibility", "Anyone on the internet with the link"),
                           ("Visibility", "Collaborators", "Branches", "Learn more")),
    "ci settings": ("https://git.example.com/acme/api/-/settings/ci_cd",
                    ("Add variable", "New secret"),
                    ("Expand", "Collapse", "Runners", "Learn more")),
    "cloud security": ("https://console.example-cloud.com/security",
                       ("Suspend GuardDuty", "Disable Security Hub", "Turn off threat detection", "Delete audit logs"),
                       ("GuardDuty findings", "Audit logs", "Download audit log", "Security Hub")),
    "phone store": ("android://com.android.vending/protect",
                    ("Turn off Google Play Protect", "OEM unlocking"),
                    ("Scan", "Check for updates", "Back")),
    "browser extensions": ("chrome://extensions",
                           ("Load unpacked", "Install add-on from file"),
                           ("Details", "Keyboard shortcuts", "Open Chrome Web Store")),
    "memberships": ("https://video.example.com/signup/planform",
                    ("Start membership", "Start my subscription", "Résilier l'abonnement", "Annulla abbonamento",
                     "Abonnement opzeggen"),
                    ("Compare plans", "Back", "Learn more", "Sign out")),
    "registrar": ("https://registrar.example.net/domains/example.org",
                  ("Unlock domain", "Turn off transfer lock", "Change nameservers", "Get EPP code",
                   "Disable WHOIS privacy"),
                  ("Nameservers", "Domains", "Renewal settings", "Back")),
    "dns": ("https://dns.example.net/zones/example.org/dns",
            # "Add record" opens the record's form, whose typed value is judged; "Save" there commits it
            ("Save", "Save changes"),
            ("Records", "Search records", "Import and export", "Learn more", "Add record", "Add DNS record")),
    "payroll": ("https://payroll.example.net/people/7",
                ("Change direct deposit", "Update payout account"),
                ("Direct deposit", "Pay stubs", "Time off")),
    "wallet": ("https://dapp.example.net/swap",
               ("Set approval for all", "Approve unlimited spending"),
               ("Wallet", "Activity", "Settings")),
    "ads and newsletters": ("https://ads.example.net/campaigns/12",
                            ("Launch campaign", "Publish ad", "Schedule newsletter", "Send campaign"),
                            ("Campaigns", "Campaign details", "Preview", "Edit audience")),
    "file sharing": ("https://files.example.net/home",
                     ("Create shared link", "Anyone with the link can edit", "Anyone can view"),
                     ("Shared", "Copy", "Move", "Details")),
    "payouts": ("https://money.example.com/recipients",
                ("Add recipient", "Add bank account"),
                ("Recipients", "Search", "Sort by name", "Download statement")),
}


@pytest.mark.parametrize(("family", "label"), [(f, lab) for f, (_, risky, _) in FAMILIES.items() for lab in risky])
def test_a_family_s_committing_labels_ask(family: str, label: str) -> None:
    got = click(label, FAMILIES[family][0])
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (family, label, got.rules)


@pytest.mark.parametrize(("family", "label"), [(f, lab) for f, (_, _, benign) in FAMILIES.items() for lab in benign])
def test_their_neighbours_on_the_same_page_pass(family: str, label: str) -> None:
    got = click(label, FAMILIES[family][0])
    assert got.decision is Decision.ALLOW, (family, label, got.rules, got.reason)


# -- the system's own settings pages: a bare switch or answer means what the page is for -----------------------

SETTINGS_PAGES = (
    ("android://com.android.settings/accessibility", "Use Screen Helper Plus"),
    ("android://com.android.settings/device_admin", "Activate"),
    ("android://com.android.settings/development", "USB debugging"),
    ("android://com.android.settings/security/install_unknown_apps", "Allow"),
    ("x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture", "Allow"),
    ("x-apple.systempreferences:com.apple.preferences.sharing", "Turn on Remote Login"),
    ("prefs:root=General&path=About/CERT_TRUST_SETTINGS", "Enable full trust for root certificates"),
    ("windowsdefender://threatsettings", "Turn off"),
    ("windowsdefender://history", "Allow on device"),
    ("control://firewall/customize", "Off"),
    ("chrome://downloads", "Keep"),
    ("chrome://downloads", "Keep anyway"),
    ("about:logins", "Show"),
    ("chrome://password-manager/passwords/example.com", "Copy password"),
)


@pytest.mark.parametrize(("url", "label"), SETTINGS_PAGES)
def test_a_bare_switch_on_a_settings_page_that_hands_over_control_asks(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (url, label, got.rules)
    assert "confirm.gui.consequential" in got.rules or got.decision is Decision.BLOCK


SETTINGS_NEAR_MISSES = (
    ("android://com.android.settings/accessibility", "Turn off"),  # taking the control back
    ("android://com.android.settings/accessibility", "Font size"),
    ("android://com.android.settings/system", "Developer options"),  # only opens the page
    ("windowsdefender://threatsettings", "Turn on"),  # protection back on
    ("windowsdefender://threat", "Quick scan"),
    ("control://firewall/customize", "Cancel"),
    ("https://github.com/settings/accessibility", "Use"),  # a web app's own accessibility page
    ("https://mail.example.com/inbox", "Turn off"),
    ("chrome://downloads", "Show in folder"),
    ("https://notes.example.com/", "Keep"),  # a notes app, not a flagged download
    ("https://example.com/signup", "Show password"),
    ("chrome://password-manager/checkup", "Check passwords"),
    ("https://app.example.com/settings/appearance", "Off"),
)


@pytest.mark.parametrize(("url", "label"), SETTINGS_NEAR_MISSES)
def test_the_same_words_elsewhere_or_the_other_way_pass(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (url, label, got.rules, got.reason)


def test_the_page_bound_kinds_are_named_for_a_person() -> None:
    assert consequence("turn off", "windowsdefender://threatsettings").kind.startswith("turning off")
    assert consequence("sign up", "https://example.com/register").kind.startswith("opening an account")
    assert consequence("sign up", "https://example.com/pricing") is None


# -- a browser's own pages ---------------------------------------------------------------------------------------


def test_an_exception_stored_on_a_certificate_error_page_asks() -> None:
    got = click("Confirm Security Exception", "about:certerror")
    assert got.decision is Decision.CONFIRM and "confirm.gui.certificate-override" in got.rules


def test_going_back_from_a_certificate_error_page_passes() -> None:
    assert click("Go Back (Recommended)", "about:certerror").decision is Decision.ALLOW
    # "Add exception" is an antivirus's or a list's own button on any other page
    assert "confirm.gui.certificate-override" not in click("Add exception", "https://example.com/lists").rules


def test_going_on_past_a_blocked_site_page_blocks() -> None:
    got = click("Ignore this risk", "about:blocked")
    assert got.decision is Decision.BLOCK and "block.gui.unsafe-site-override" in got.rules


def test_cookies_kept_for_every_site_ask_and_a_site_s_own_banner_passes() -> None:
    assert click("Accept third-party cookies").decision is Decision.CONFIRM
    assert click("Allow all cookies", "chrome://settings/cookies").decision is Decision.CONFIRM
    assert click("Accept all cookies", "https://news.example.com/").decision is Decision.ALLOW
    assert click("Allow all cookies", "https://news.example.com/").decision is Decision.ALLOW


@pytest.mark.parametrize("label", ["Deploy keys", "Webhooks", "SSH and GPG keys", "Secrets and variables",
                                   "Personal access tokens", "Authorized OAuth apps", "Danger zone"])
def test_a_settings_page_s_sections_are_navigation(label: str) -> None:
    assert click(label, "https://git.example.com/acme/api/settings").decision is Decision.ALLOW


def test_what_a_section_holds_still_asks() -> None:
    assert click("Add deploy key", "https://git.example.com/acme/api/settings/keys").decision is Decision.CONFIRM
    assert click("Deploy", "https://git.example.com/acme/api/environments").decision is Decision.CONFIRM


def test_a_browser_s_cookie_rows_open_a_page_and_its_switches_ask() -> None:
    assert click("Third-party cookies", "chrome://settings/privacy").decision is Decision.ALLOW
    assert click("Block third-party cookies", "chrome://settings/cookies").decision is Decision.CONFIRM


# -- the commonest consequential verbs in other languages, and their harmless neighbours ------------------------

LANGUAGE_COMMITS = (
    ("https://app.example.de/team", "Mitglieder einladen"), ("https://app.example.de/team", "Als Inhaber festlegen"),
    ("https://drive.example.de/d/1", "Öffentlich freigeben"),
    ("https://git.example.de/einstellungen", "Projekt löschen"),
    ("https://app.example.fr/equipe", "Nommer administrateur"),
    ("https://drive.example.fr/d/1", "Toute personne disposant du lien"),
    ("https://drive.example.es/d/1", "Cualquier usuario con el enlace"),
    ("https://drive.example.br/d/1", "Qualquer pessoa com o link"),
    ("https://app.example.it/team", "Invita utenti"), ("https://drive.example.it/d/1", "Rendi pubblica"),
    ("https://app.example.nl/team", "Gebruikers uitnodigen"), ("https://drive.example.nl/d/1", "Iedereen met de link"),
    ("https://app.example.nl/instellingen", "Account definitief verwijderen"),
    ("https://bank.example.nl/", "Geld overmaken"),
    ("https://shop.example.jp/checkout", "注文を確定する"), ("https://shop.example.kr/checkout", "결제하기"),
)


@pytest.mark.parametrize(("url", "label"), LANGUAGE_COMMITS)
def test_commits_in_other_languages_ask(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (label, got.rules)


LANGUAGE_NEIGHBOURS = (
    ("https://shop.example.de/suche", "Filter löschen"), ("https://shop.example.de/suche", "Auswahl löschen"),
    ("https://app.example.de/team", "Mitglieder"), ("https://drive.example.de/d/1", "Link kopieren"),
    ("https://shop.example.nl/zoeken", "Filters wissen"), ("https://app.example.it/team", "Membri"),
    ("https://shop.example.jp/cart", "お支払いに進む"), ("https://shop.example.kr/", "결제 수단"),
    ("https://app.example.fr/equipe", "Voir les membres"),
)


@pytest.mark.parametrize(("url", "label"), LANGUAGE_NEIGHBOURS)
def test_their_neighbours_in_those_languages_pass(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, got.rules, got.reason)


# -- a phone's apps and a machine's drives -----------------------------------------------------------------------

PHONE_COMMITS = (
    ("android://com.google.android.apps.maps", "Share real-time location"),
    ("android://permissioncontroller", "While using the app"),
    ("android://com.android.settings/apps/default", "Set as default SMS app"),
    ("android://com.android.settings/system/reset", "Reset network settings"),
    ("file:///media", "Format the USB drive"),
    ("https://git.example.com/acme/api/pulls", "Merge all pull requests"),
    ("https://helpdesk.example.com/requests", "Approve all"),
)


@pytest.mark.parametrize(("url", "label"), PHONE_COMMITS)
def test_a_phone_s_grants_resets_and_bulk_answers_ask(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (label, got.rules)


NEIGHBOURS = (
    ("android://permissioncontroller", "Don't allow"),
    ("https://docs.example.com/d/1", "Format"),  # a word processor's menu
    ("https://news.example.com/story", "Accept all"),  # a consent banner: withdrawn in the site's settings
    ("https://news.example.com/story", "Reject all"),
    ("https://news.example.com/story", "Accept & close"),
    ("https://bank.example.com/", "Transfer history"),
    ("https://shop.example.com/account", "View order details"),
)


@pytest.mark.parametrize(("url", "label"), NEIGHBOURS)
def test_consent_banners_menus_and_records_of_past_actions_pass(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, got.rules, got.reason)


def test_agreeing_to_terms_still_asks() -> None:
    assert click("I agree to the terms", "https://app.example.com/signup").decision is Decision.CONFIRM
    assert click("Accept all terms and conditions", "https://app.example.com/").decision is Decision.CONFIRM


# -- a desktop's own settings: whoever sits at the machine gets in ------------------------------------------------

DESKTOP_COMMITS = (
    ("gnome-control-center:users", "Automatic Login"),
    ("x-apple.systempreferences:com.apple.preferences.users", "Log in automatically"),
    ("gnome-control-center:privacy", "Automatic screen lock: off"),
    ("x-apple.systempreferences:com.apple.preference.security", "Require password after sleep or screen saver: never"),
    ("ms-settings:signinoptions", "Remove PIN"),
    ("ms-settings:windowsupdate", "Pause updates for 3 weeks"),
    ("control://bitlocker", "Suspend protection"),
    ("gnome-control-center:sharing", "Remote Control"),
    ("ms-settings:otherusers", "Change account type"),
)


@pytest.mark.parametrize(("url", "label"), DESKTOP_COMMITS)
def test_a_desktop_s_locks_and_logins_switched_off_ask(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (label, got.rules)


@pytest.mark.parametrize(("url", "label"), (
    ("gnome-control-center:users", "Users"),
    ("gnome-control-center:privacy", "Screen lock"),
    ("ms-settings:windowsupdate", "Check for updates"),
    ("ms-settings:windowsupdate", "Resume updates"),
    ("ms-settings:signinoptions", "Sign-in options"),
))
def test_opening_those_settings_passes(url: str, label: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, got.rules, got.reason)


def test_a_warning_page_s_address_list_must_be_strings() -> None:
    from gate.cues import parse_cues

    with pytest.raises(ValueError, match="interstitial-pages"):
        parse_cues('[navigation]\nen = ["next"]\n[interstitial-pages]\ncertificate = "about:certerror"\n')
    book = parse_cues('[navigation]\nen = ["next"]\n[interstitial-pages]\ncertificate = ["About:CertError"]\n')
    assert book.interstitial_pages == {"certificate": ("about:certerror",)}


def test_a_warning_page_s_own_text_wins_over_its_address() -> None:
    got = GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "url": "about:certerror",
                                        "target": {"label": "Continue to site"}}),
                      Observation(url="about:certerror", page_text="Deceptive site ahead: reported as phishing"))
    assert got.decision is Decision.BLOCK and "block.gui.unsafe-site-override" in got.rules


# -- a dialog's plain "Yes" means the change its title names ------------------------------------------------------

@pytest.mark.parametrize(("title", "label"), (
    ("Turn off Windows Defender Firewall?", "Yes"),
    ("Export all contacts?", "OK"),
    ("Make this folder public?", "Confirm"),
    ("Cancel your subscription?", "Yes, I'm sure"),
    ("Install this update?", "OK"),
))
def test_a_plain_yes_in_a_dialog_that_names_a_change_asks(title: str, label: str) -> None:
    got = click(label, "", title)
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (title, label, got.rules)


@pytest.mark.parametrize(("title", "label"), (
    ("Document saved", "OK"),
    ("Checkout - Example Shop", "Continue"),  # a payment's page: "Continue" only leads there
    ("Export all contacts?", "Continue"),  # a step towards it, answered later
    ("Turn off Windows Defender Firewall?", "No"),
    ("Settings", "Yes"),
))
def test_a_plain_answer_elsewhere_passes(title: str, label: str) -> None:
    got = click(label, "", title)
    assert got.decision is Decision.ALLOW, (title, label, got.rules, got.reason)


def test_every_kind_a_dialog_title_can_name_is_in_the_cue_book() -> None:
    from gate.cues import cue_book
    from gate.rules.gui import _ANSWERED_CHANGES, _GRANTING

    names = {k.name for k in cue_book().consequence}
    assert names >= (_ANSWERED_CHANGES | _GRANTING)
