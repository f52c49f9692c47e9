"""What an ordinary action in a web app does, read from where it happens (gate/rules/webapp.py and the
`[context.*]` tables of resources/cues.toml): a bare export on a page that lists people, a backup download,
an outside address typed into a share dialog, a browser's protections switched on its settings page. Our own
pages, labels and addresses, written from how CRMs, HR systems, shop admins, office suites and browsers
document these screens; each class has near misses that stay quiet."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.cues import cue_book
from gate.model import Decision, Observation
from gate.rules.webapp import url_words

GATE = SafetyGate()


def click(label: str, url: str = "", title: str = "", page: str = ""):
    data: dict = {"type": "click", "x": 1, "y": 1, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title, page_text=page))


def type_(text: str, label: str = "", url: str = "", title: str = "", page: str = ""):
    data: dict = {"type": "type", "text": text}
    if label:
        data["target"] = {"label": label}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title, page_text=page))


def navigate(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


# -- confirm.gui.records-export ------------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "url", "title"), [
    ("Export", "https://crm.acme-sales.test/contacts", ""),
    ("Export to CSV", "https://app.acme-shop.test/admin/customers?page=1", ""),
    ("Download list", "https://hr.acme.test/people/directory", ""),
    ("CSV", "https://crm.acme.test/leads/view/all", ""),
    ("Export", "", "Contacts | Acme CRM"),
    ("Exportieren", "https://crm.acme.test/kunden", ""),
    ("Exporter en CSV", "https://rh.acme.test/salariés", ""),
    ("Exportar", "https://crm.acme.test/clientes", ""),
    ("Esporta", "https://crm.acme.test/contatti", ""),
    ("Exporteren naar Excel", "https://crm.acme.test/klanten", ""),
    ("导出", "https://crm.acme.test/customers", ""),
    ("Export", "https://crm.acme.test/index.php?module=Contacts&action=index", ""),
    ("Export", "https://contacts.acme.test/", ""),  # the host names the list
])
def test_a_bare_export_on_a_page_that_lists_people_asks(label, url, title):
    a = click(label, url, title)
    assert a.decision is Decision.CONFIRM and "confirm.gui.records-export" in a.rules, (label, a.rules)


@pytest.mark.parametrize("label", ["Download backup", "Download full backup", "Create and download backup",
                                   "Download database", "Sicherung herunterladen", "Descargar copia de seguridad"])
def test_a_backup_download_asks_on_any_page(label):
    a = click(label, "https://blog.acme.test/wp-admin/tools.php")
    assert "confirm.gui.records-export" in a.rules, (label, a.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Export", "https://docs.acme.test/document/123/edit"),  # a document saved elsewhere
    ("Export as PDF", "https://crm.acme.test/contacts/42/note"),  # a named format of one note, not the list
    ("Export chart", "https://grafana.acme.test/d/abc/customers"),  # names what it exports
    ("Export", "https://help.acme.test/articles/export-contacts"),  # a help page about exporting
    ("Download", "https://github.com/acme/tool/releases"),
    ("Contacts", "https://crm.acme.test/contacts"),  # opening the list
    ("Download invoice", "https://shop.acme.test/orders/55"),
])
def test_near_misses_of_a_records_export_stay_quiet(label, url):
    assert "confirm.gui.records-export" not in click(label, url).rules, (label, url)


# -- confirm.nav.records-export ------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://crm.acme.test/contacts/export?format=csv",
    "https://admin.acme.test/users/export.csv",
    "https://hr.acme.test/employees/download?all=1",
    "https://acme.myshopify.com/admin/customers/export",
    "https://crm.acme.test/kunden/exportieren",
    "https://shop.acme.test/admin/export",  # an administration console's data
    "https://admin.acme.test/export/all",
])
def test_a_url_that_exports_a_list_of_people_asks(url):
    a = navigate(url)
    assert a.decision is Decision.CONFIRM and "confirm.nav.records-export" in a.rules, (url, a.rules)


@pytest.mark.parametrize("url", [
    "https://crm.acme.test/contacts",
    "https://crm.acme.test/leads?page=2",
    "https://support.acme.test/kb/export-contacts-to-csv",
    "https://www.google.com/search?q=export+contacts+csv",
    "https://files.acme.test/reports/q3.csv",
    "https://github.com/acme/tool/releases/download/v1.0/tool.tar.gz",
    "https://github.com/acme/customer-export/releases/download/v1/x.zip",  # a tool named for exporting
    "https://pypi.org/project/django-users-export/",
    "https://data.acme.test/datasets/customers/download",  # a public data set
    "https://shop.acme.test/admin/",  # the console itself
    "https://docs.acme.test/admin-guide/export",  # a page about it
])
def test_near_misses_of_a_records_export_url_stay_quiet(url):
    assert "confirm.nav.records-export" not in navigate(url).rules, url


def test_url_words_read_the_path_fragment_and_query_but_not_what_was_searched():
    assert url_words("https://a.test/admin/Customers/export?format=csv#list") == \
        "admin customers export list format csv"
    assert url_words("https://a.test/search?q=export+contacts", frozenset({"q"})) == "search q"
    assert url_words("") == ""


# -- confirm.gui.share-outside -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "label", "url", "title", "page"), [
    ("pat.doe@gmail.com", "Add people, groups, and calendar events", "https://docs.google.com/spreadsheets/d/1/edit",
     'Share "Q3 budget"', ""),
    ("x@protonmail.com", "Email address", "", "Add collaborator", ""),
    ("ext@vendor-co.test", "Enter email", "https://files.acme.test/folder/9", "",
     "Share this folder\nPeople with access\nOnly you"),
    ("a@outlook.com, b@yahoo.com", "Names or emails", "https://notes.acme.test/page/1", "Share", ""),
    ("partner@gmx.de", "E-Mail-Adresse", "", "Freigeben", ""),
    ("ami@laposte.net", "Adresse e-mail", "", "Partager avec des personnes", ""),
    ("amigo@hotmail.es", "Correo electrónico", "", "Compartir con otras personas", ""),
    ("amico@libero.it", "Indirizzo email", "", "Condividi con altre persone", ""),
    ("friend@mail.ru", "Email", "", "Предоставить доступ", ""),
    ("outsider@other-firm.test", "Email", "https://app.acme.test/settings/members", "", ""),
    # a people picker's own field says it, with no title
    ("ext@partner.test", "Add a name, group, or email", "https://files.acme.test/sites/x", "", ""),
    ("a@partner.test, b@partner.test", "Emails, comma separated", "https://notes.acme.test/p/1", "", ""),
    ("intruder@evil.test", "Search by username, full name, or email", "https://code.acme.test/o/r/settings/access",
     "", ""),
    ("intruder@evil.test", "Username or email address", "https://code.acme.test/g/p/-/project_members", "", ""),
])
def test_an_outside_address_typed_into_a_share_dialog_asks(text, label, url, title, page):
    a = type_(text, label, url, title, page)
    assert a.decision is not Decision.ALLOW and "confirm.gui.share-outside" in a.rules, (text, title, a.rules)


@pytest.mark.parametrize(("text", "label", "url", "title"), [
    ("bob@acme.test", "Email", "https://app.acme.test/settings/members", ""),  # a colleague on the page's domain
    ("invoice@vendor.test", "Search people", "", 'Share "doc"'),  # a search field
    ("me@gmail.com", "Your email", "", "Share this article"),  # the sender's own address
    ("me@gmail.com", "Email", "https://app.acme.test/invitations/accept", "Invite"),  # taking up an invitation
    ("me@gmail.com", "Email", "https://shop.acme.test/login", ""),  # no share anywhere
    ("alice", "Add people", "", 'Share "doc"'),  # a name, not an address
])
def test_near_misses_of_a_share_stay_quiet(text, label, url, title):
    assert "confirm.gui.share-outside" not in type_(text, label, url, title).rules, (text, label, title)


def test_share_dialog_cues_cover_several_languages():
    dialog = cue_book().context["share-dialog"]
    for words in ("share q3 budget", "people with access", "teilen", "partager", "compartir", "condividi",
                  "delen", "udostępnij", "共享", "共有", "공유"):
        assert dialog.search(words), words
    assert not dialog.search("market share report")


# -- confirm.gui.browser-protection --------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "url"), [
    ("Always use secure connections", "chrome://settings/security"),
    ("Enable HTTPS-Only Mode in all windows", "about:preferences#privacy"),
    ("Block pop-up windows", "about:preferences#privacy"),
    ("Sites can send pop-ups and use redirects", "chrome://settings/content/popups"),
    ("Warn you about dangerous downloads", "edge://settings/privacy"),
    ("Navigation sécurisée", "chrome://settings/security"),
    ("Ventanas emergentes y redirecciones", "chrome://settings/content"),
])
def test_a_protection_switched_on_a_browser_settings_page_asks(label, url):
    a = click(label, url)
    assert a.decision is Decision.CONFIRM and "confirm.gui.browser-protection" in a.rules, (label, a.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Appearance", "chrome://settings/"),
    ("Search engine", "chrome://settings/search"),
    ("Languages", "about:preferences#general"),
    ("Safe Browsing", "https://support.google.com/chrome/answer/9890866"),  # a help article, not the switch
])
def test_other_settings_and_help_pages_stay_quiet(label, url):
    assert "confirm.gui.browser-protection" not in click(label, url).rules, (label, url)


# -- a forwarding field written as a copy of every message ---------------------------------------------------

@pytest.mark.parametrize(("label", "blocks"), [
    ("Forward a copy of incoming mail to", True), ("Forward a copy of incoming email to", True),
    ("Forward copies to", True), ("Forward", False),
])
def test_a_field_that_forwards_a_copy_of_every_message(label, blocks):
    a = type_("keeper@mail.example", label, "https://mail.acme.test/settings/forwarding")
    assert ("block.gui.access-out" in a.rules) is blocks, (label, a.rules)


# -- confirm.gui.collector-url -------------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "text", "url"), [
    ("URL", "https://webhook.site/0f3a-1111", "https://code.acme.test/o/r/settings/hooks/new"),
    ("Endpoint", "https://eo1234.m.pipedream.net", "https://pay.acme.test/webhooks/create"),
    ("Server URL", "https://abc.ngrok.io/hook", "https://app.acme.test/admin/settings"),
    ("", "https://requestbin.net/r/xyz", ""),
])
def test_a_collector_url_typed_into_a_field_asks(label, text, url):
    a = type_(text, label, url)
    assert a.decision is not Decision.ALLOW and "confirm.gui.collector-url" in a.rules, (text, a.rules)


@pytest.mark.parametrize(("label", "text"), [
    ("Homepage URL", "https://www.acme.test"), ("Website", "https://blog.acme.test/me"),
    ("Search", "https://webhook.site/abc"),  # looked up, sent nowhere
    ("Message", "have a look at https://webhook.site/abc and tell me"),  # not one URL
])
def test_near_misses_of_a_collector_url_stay_quiet(label, text):
    assert "confirm.gui.collector-url" not in type_(text, label, "https://app.acme.test/settings").rules, text


# -- a generic commit on a keys, hooks or forwarding page ----------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://code.acme.test/o/r/settings/keys/new", "https://code.acme.test/o/r/settings/hooks/new",
    "https://mail.acme.test/mail/u/0/#settings/fwdandpop", "https://mail.acme.test/options/mail/forwarding",
])
def test_saving_on_a_keys_hooks_or_forwarding_page_asks(url):
    for label in ("Save", "Add key", "Save changes"):
        assert click(label, url).decision is Decision.CONFIRM, (label, url)


@pytest.mark.parametrize("url", ["https://mail.acme.test/options/mail/notifications",
                                 "https://code.acme.test/o/r/settings/general", "https://shop.acme.test/search/filters"])
def test_saving_on_other_settings_pages_stays_quiet(url):
    assert click("Save", url).decision is Decision.ALLOW, url


@pytest.mark.parametrize(("label", "asks"), [("Forward a copy of incoming mail to", True), ("Forward", False)])
def test_the_forwarding_switch_itself_asks(label, asks):
    assert (click(label).decision is Decision.CONFIRM) is asks, label


# -- confirm.gui.warning-bypass-phrase -----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["thisisunsafe", "ThisIsUnsafe", "badidea"])
def test_the_phrase_that_loads_a_site_past_its_warning_asks(text):
    a = type_(text, url="https://self-signed.acme.test/", page="Your connection is not private")
    assert a.decision is Decision.CONFIRM and "confirm.gui.warning-bypass-phrase" in a.rules, (text, a.rules)


@pytest.mark.parametrize(("text", "label"), [("this is unsafe", "Comment"), ("danger", "Title"),
                                             ("thisisunsafe is a Chrome trick", "Message")])
def test_the_same_letters_elsewhere_stay_quiet(text, label):
    assert "confirm.gui.warning-bypass-phrase" not in type_(text, label).rules, text


# -- confirm.gui.share-commit --------------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "title", "page"), [
    ("Share", 'Share "Q3 budget"', ""),
    ("Send", "", 'Share "Finance"\nAdd people, groups, and calendar events\nPeople with access'),
    ("Add", "Add a collaborator to tool", ""),
    ("Teilen", "Freigeben", ""),
    ("Partager", "Partager avec des personnes", ""),
    ("Compartir", "", "Compartir con otras personas\nPersonas con acceso"),
    ("共有", "共有", ""),
])
def test_the_button_that_sends_a_share_asks(label, title, page):
    a = click(label, "https://files.acme.test/folder/9", title, page)
    assert a.decision is Decision.CONFIRM and "confirm.gui.share-commit" in a.rules, (label, a.rules)


@pytest.mark.parametrize(("label", "title", "page"), [
    ("Share", "Q3 budget - Sheets", "File Edit View\nShare\nQ3 budget"),  # the toolbar's button opens the dialog
    ("Done", 'Share "Q3 budget"', ""),
    ("Cancel", 'Share "Q3 budget"', ""),
    ("Share", "Market share report", ""),
    ("Send", "Share your thoughts", ""),  # a comment form's heading
])
def test_near_misses_of_a_share_commit_stay_quiet(label, title, page):
    assert "confirm.gui.share-commit" not in click(label, "https://files.acme.test/x", title, page).rules, label


# -- a list of people or a whole account's data, named by the label ------------------------------------------

@pytest.mark.parametrize("label", [
    "Request archive", "Request a download", "Export workspace data", "Download account data", "Export chat",
    "Export mailbox", "Download member list", "Exportar usuarios", "Exporter les utilisateurs",
    "Benutzer exportieren", "Mitarbeiterliste herunterladen", "Exportar funcionários",
])
def test_a_label_that_names_people_or_a_whole_account_asks(label):
    assert click(label).decision is Decision.CONFIRM, label


@pytest.mark.parametrize(("label", "url"), [
    ("Create export", "https://app.acme.test/admin/users"), ("Generate export", "https://crm.acme.test/leads"),
    ("Backup now and download", "https://site.acme.test/admin"),
])
def test_starting_an_export_on_a_list_of_people_asks(label, url):
    assert "confirm.gui.records-export" in click(label, url).rules, label


@pytest.mark.parametrize("label", ["Export as PNG", "Export slides", "Download PDF", "Export settings",
                                   "Import contacts", "Export theme", "Request a demo", "Download app"])
def test_exports_of_a_document_or_a_setting_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


@pytest.mark.parametrize(("label", "url", "blocks"), [
    ("Email address", "https://mail.acme.test/mail/u/0/#settings/fwdandpop", True),
    ("Email", "https://mail.acme.test/options/mail/forwarding", True),
    ("Email address", "https://mail.acme.test/options/mail/notifications", False),
    ("Subject", "https://mail.acme.test/options/mail/forwarding", False),
])
def test_an_address_field_on_a_forwarding_page_is_a_forwarding_field(label, url, blocks):
    a = type_("keeper@mail.example", label, url)
    assert ("block.gui.access-out" in a.rules) is blocks, (label, url, a.rules)


# -- confirm.gui.forwarding-rule -----------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "title", "page"), [
    ("Create filter", "", "When a message matches:\nSkip the Inbox\nForward it to: keeper@mail.example"),
    ("Save", "New inbox rule", "Do all of the following: Redirect the message to keeper@mail.example"),
    ("Filter erstellen", "", "Nachricht weiterleiten an keeper@mail.example"),
    ("Enregistrer", "Nouvelle règle", "Transférer le message à keeper@mail.example"),
])
def test_saving_a_rule_that_forwards_mail_asks(label, title, page):
    a = click(label, "https://mail.acme.test/mail/#settings/filters", title, page)
    assert a.decision is Decision.CONFIRM and "confirm.gui.forwarding-rule" in a.rules, (label, a.rules)


@pytest.mark.parametrize(("label", "page"), [
    ("Create filter", "When a message matches:\nSkip the Inbox\nApply the label: Receipts"),
    ("Forward", "Forward it to your team"),  # one message, not a rule
    ("Cancel", "Forward it to: keeper@mail.example"),
])
def test_other_filters_and_buttons_stay_quiet(label, page):
    assert "confirm.gui.forwarding-rule" not in click(label, "https://mail.acme.test/", "", page).rules, label


# -- everything forwarded out, a photo put in a public album, a whole folder emptied ---------------------------


@pytest.mark.parametrize(("label", "rule"), [
    ("Share photo to public album", "confirm.gui.consequential"),
    ("Add these files to the public folder", "confirm.gui.consequential"),
    ("Forward this thread to my personal email", "confirm.gui.consequential"),
    ("Empty Deleted Items folder", "confirm.gui.irreversible"),
    ("Empty the junk email folder", "confirm.gui.irreversible"),
])
def test_what_leaves_for_everyone_or_is_gone_for_good_asks(label, rule):
    got = click(label, "https://app.example.com/mail")
    assert got.decision is Decision.CONFIRM and rule in got.rules, (label, got.rules)


@pytest.mark.parametrize("label", ["Forward", "Add to album", "Share to my album", "Empty cart", "Public albums",
                                   "Forward to a colleague"])
def test_ordinary_sharing_and_folders_pass(label):
    got = click(label, "https://app.example.com/photos")
    assert "confirm.gui.consequential" not in got.rules and "confirm.gui.irreversible" not in got.rules, \
        (label, got.rules)
