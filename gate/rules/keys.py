"""Key chords that open a place where commands run, pressed while a page asks for them (ClickFix).

A fake verification ("verify you are human", "I'm not a robot", "fix error 0x..", "update required")
tells whoever is at the keyboard to press Win+R (or Win+X, Cmd+Space, Ctrl+Alt+T), paste and press
Enter: the page has put a command on the clipboard, and the person runs it without seeing it. An agent
that follows such a page does the same. The gate sees one chord at a time, so it judges the first one:
a chord that opens the Run box, the power-user menu, Spotlight or a terminal, while the active window
is such a page, blocks. The same chord on an ordinary window (a desktop, an editor, a mail) is left to
the other rules: people open a terminal all day.

The same holds for the browser's downloads list: the chord that opens it (Ctrl+J, Cmd+Shift+J, Cmd+Option+L,
Ctrl+Shift+Y) and Enter run the newest download. While the window's title names a program just downloaded from a
site that ships no software, that is the fake-update page's last step (`block.gui.run-latest-download`).

Pure: reads the action's keys and the observation's window title, URL and page text.
"""

from __future__ import annotations

import re

from gate.cues import either_spelling
from gate.destinations import own_site
from gate.fields import chat_window, compose_window
from gate.model import Hit, Key, Risk
from gate.normalise import fold
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.gui import canonical_keys, in_vault_window, key_combo
from gate.urls import RELEASE_HOST, USER_CONTENT_HOST

__all__ = ["RULES", "chords"]

# chords that open somewhere a line of text runs: the Run box, the Win+X menu (PowerShell/Terminal as admin),
# Spotlight and Alfred/Raycast launchers (a typed "terminal" opens one), a desktop's terminal shortcut
RUN_OPENERS = frozenset({"super+r", "super+x", "super+space", "alt+space", "ctrl+alt+t", "super+enter",
                         "super+t", "ctrl+shift+enter", "super+shift+enter"})

# a page that asks for a check or a fix it says only keys can make: its title, its address or its text
_LURE = re.compile(
    r"\b(?:verify (?:you are|you re|you[\u2019']re|that you are) (?:a )?human|are you (?:a )?human|human verification|"
    r"not a (?:robot|bot)|captcha|verification (?:step|required|failed|needed|error)|press (?:\w+ ){0,3}to verify|"
    r"(?:complete|finish|pass) (?:the |this )?(?:verification|check|captcha|challenge)|"
    r"(?:security|browser|human|bot|ddos) (?:check|verification|challenge)|checking your browser|"
    r"press (?:win|windows|the windows key|cmd|command)|fix (?:the )?(?:error|issue|problem)|"
    r"error (?:code )?0x[0-9a-f]{4,}|(?:update|fix|patch) required|your (?:browser|system|computer|pc) "
    r"(?:is|has been) (?:infected|blocked|locked|out of date)|(?:document|file|page) (?:can t|cannot|could not) "
    r"(?:be )?(?:displayed|opened|loaded)|"
    # scares and free fixes: something of the person's is said to be broken, at risk or locked, and a key fixes it
    r"(?:your |all )?(?:passwords?|accounts?|data|files|device|computer|pc|system) (?:have|has|were|was) been "
    r"(?:compromised|leaked|hacked|stolen|exposed|encrypted|infected)|(?:virus|malware|trojan|threats?) "
    r"(?:detected|found)|(?:security|critical|virus) (?:alert|warning)|(?:repair|restore|fix|renew|reinstall) "
    r"(?:\w+ ){0,2}(?:certificate|connection|security|driver|browser|system|windows|dns|network)|"
    r"(?:certificate|ssl|https|dns|driver) (?:error|problem|expired|invalid|update)|activate (?:windows|office|"
    r"your (?:copy|license|licence))|(?:windows|office|license|licence) (?:activation|expired)|"
    r"(?:for )?free activation|(?:browser|driver|system|chrome|flash) (?:update|upgrade) (?:needed|available|now)|"
    # the human check in other languages
    r"(?:ich bin )?kein roboter|bestätigen sie,? dass sie ein mensch sind|je ne suis pas un robot|"
    r"vérifiez que vous êtes (?:un )?humain|no soy un robot|verifica que eres humano|não sou um robô|"
    r"non sono un robot|ik ben geen robot|nie jestem robotem|ben robot değilim|"
    r"私はロボットではありません|我不是机器人|進行人機驗證|人机验证)\b")


def chords(keys: list[str]) -> tuple[str, ...]:
    """The chords a key action presses. One action is one chord (`["win", "r"]`); a client that writes a
    sequence in one string (`"win+r ctrl+v enter"`) gets each chord read in turn."""
    joined = "+".join(keys)
    if " " not in joined.strip():
        return (canonical_keys(keys),)
    return tuple(canonical_keys(part.split("+")) for part in joined.split() if part.strip("+"))


@rule("block.gui.run-box-on-lure", "Opening the Run box or a terminal because a page says so", risk=Risk.CRITICAL,
      types=("key",), confidence=0.9)
def run_box_on_lure(ctx: Context) -> str | None:
    """A chord that opens the Run box, the Win+X menu, Spotlight or a terminal (`RUN_OPENERS`) while the
    active window is a page that asks for a human check or a fix (its title, address or text: `_LURE`). That
    is the first key of "press Win+R, paste, press Enter": what would run is the page's, never judged.
    Near-miss: the same chord over a desktop, a terminal or an editor, and a captcha page with no such chord
    (typing into it, pressing Tab) are not this rule's."""
    pressed = chords(ctx.action.keys)  # type: ignore[attr-defined]
    opener = next((c for c in pressed if c in RUN_OPENERS), None)
    if opener is None:
        return None
    obs = ctx.observation
    where = fold(f"{obs.window_title}\n{obs.url}\n{obs.page_text[:2000]}")
    m = _LURE.search(where)
    if m is None:
        return None
    return (f"{opener} opens a place where commands run, while the page says {m.group(0)!r}: the fake-verification "
            f"trick that has a page's command pasted and run")


# chords that open a browser's downloads list or panel (Chrome, Edge and Firefox on Windows and Linux; Chrome and
# Safari on macOS; Firefox's Library on Linux; the menu key some builds bind), where Enter opens the newest item
DOWNLOAD_LIST = frozenset({"ctrl+j", "shift+super+j", "alt+super+l", "ctrl+shift+y", "alt+e", "super+j"})
# a program or an installer named in a window's title ("ChromeUpdate.exe downloaded - news.example.top")
_PROGRAM_FILE = re.compile(r"([\w()\[\] .~+-]{1,80}?\.(?:exe|msi|msix|msixbundle|appx|appxbundle|dmg|pkg|mpkg|apk|"
                           r"scr|bat|cmd|com|pif|js|jse|vbs|vbe|wsf|hta|ps1|lnk|jar|iso|img|vhdx?|run|bin|sh|"
                           r"appimage|deb|rpm))(?![\w.])", re.IGNORECASE)
_HOST_IN_TITLE = re.compile(r"(?<![\w.@-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?![\w-])",
                            re.IGNORECASE)
_DOWNLOADED = re.compile(either_spelling(
    r"\b(?:downloaded|download (?:complete|finished|done)|downloads?|saved|finished|"
                         r"heruntergeladen|téléchargé|descargado|scaricato|baixado|загружен|скачан)\b"), re.IGNORECASE)


def _fresh_program(title: str) -> tuple[str, str] | None:
    """(file, host) when the window's title names a program or an installer just downloaded and the site it came
    from is none that ships software (a vendor's release host or a listed brand's own site); "" for the host when
    the title names none."""
    if not title or len(title) > 400 or not _DOWNLOADED.search(title):
        return None
    m = _PROGRAM_FILE.search(title)
    if m is None:
        return None
    name = m.group(1).strip()
    rest = title[:m.start()] + " " + title[m.end():]
    for host in (h.lower() for h in _HOST_IN_TITLE.findall(rest)):
        if (RELEASE_HOST.match(host) and not USER_CONTENT_HOST.match(host)) or own_site(host):
            return None
        return name, host
    return name, ""


@rule("block.gui.run-latest-download", "Opening the downloads list to run a program just fetched from an unknown "
      "site", risk=Risk.CRITICAL, types=("key",), confidence=0.8)
def run_latest_download(ctx: Context) -> str | None:
    """A chord that opens the browser's downloads list (`DOWNLOAD_LIST`: Ctrl+J, Cmd+Shift+J, Cmd+Option+L,
    Ctrl+Shift+Y), alone or followed by Enter, while the window's title names a program, a script or an installer
    just downloaded (`ChromeUpdate.exe downloaded`) from a site that is no vendor's release host and no listed
    brand's own site. Fake browser updates and cracked-software pages end so: the file is fetched, and the
    agent is told to open it from the downloads list. A title with no site named, the same keys over an
    ordinary page, and an installer from the vendor (`python.org`, `microsoft.com`) are not this rule's."""
    # a client may write the opener and Enter as one list (`["ctrl+j", "enter"]`): Enter is read as the next key
    pressed = [c.replace("+enter", "").replace("enter+", "") for c in chords(ctx.action.keys)]  # type: ignore[attr-defined]
    opener = next((c for c in pressed if c in DOWNLOAD_LIST), None)
    if opener is None:
        return None
    got = _fresh_program(ctx.observation.window_title or "")
    if got is None or not got[1]:
        return None
    return (f"{opener} opens the downloads list while {got[0]!r} from {got[1]} was just downloaded: the newest "
            f"item runs with Enter, a program from a site that ships none")


# -- keys by what they do where they are pressed ----------------------------------------------------------------

# how other clients write a key: pynput's `Key.shift`, xdotool's and X11's `Shift_L` / `Control_R` / `Super_L`,
# angle brackets (`<ctrl>`), Windows' virtual keys (`VK_DELETE`), Linux input codes (`KEY_LEFTSHIFT`), SendKeys'
# braces (`{DEL}`), a Mac's symbols
_KEY_SPELLING = re.compile(r"^(?:key\.|vk_|key_|xk_)|^[<{\[]|[>}\]]$|_(?:l|r)$|^(?:left|right)(?=shift|ctrl|control|"
                           r"alt|super|meta|win|cmd)|(?:left|right)$", re.IGNORECASE)
_SYMBOLS = {"⌘": "cmd", "⌥": "alt", "⇧": "shift", "⌃": "ctrl", "⌫": "backspace", "⌦": "delete", "⎋": "esc",
            "↩": "enter", "⏎": "enter", "^": "ctrl"}
_NAMES = {"cmd_l": "cmd", "cmd_r": "cmd", "lmenu": "alt", "rmenu": "alt", "menu": "alt", "lwin": "win", "rwin": "win",
          "lcontrol": "ctrl", "rcontrol": "ctrl", "control": "ctrl", "leftshift": "shift", "rightshift": "shift",
          "leftctrl": "ctrl", "rightctrl": "ctrl", "leftalt": "alt", "rightalt": "alt", "leftmeta": "super",
          "rightmeta": "super", "iso_level3_shift": "alt", "mod4": "super", "mod1": "alt", "prior": "pageup",
          "next": "pagedown", "kp_enter": "enter", "numpadenter": "enter", "kp_delete": "delete", "return": "enter"}


_KEY_JOIN = re.compile(r"(?<=\S)[+\s]+(?=\S)")  # "ctrl+a", "ctrl+a shift+delete"; a lone "+" stays a key


def respelled(keys: list[str]) -> list[str]:
    """The keys written as `gate.rules.gui.canonical_keys` reads them: another client's spelling of a key
    (`Key.shift`, `Shift_L`, `<ctrl>`, `VK_DELETE`, `{DEL}`, `⌘`) turned into its plain name."""
    out: list[str] = []
    for key in keys:
        for part in (_KEY_JOIN.split(key) if len(key) > 1 else [key]):
            name = part.strip()
            if not name:
                continue
            name = _SYMBOLS.get(name, name)
            low = name.lower()
            for _ in range(3):
                new = _KEY_SPELLING.sub("", low)
                if new == low:
                    break
                low = new
            low = _NAMES.get(low, low)
            out.append(low or name.lower())
    return out


def _respelled_verdict(ctx: Context) -> tuple[Hit | None, Hit | None]:
    """The key rules' verdict on the keys as they are commonly written, when the action spelled them otherwise."""
    keys = list(ctx.action.keys)  # type: ignore[attr-defined]
    plain = respelled(keys)
    if not plain or canonical_keys(plain) == ctx.derived(key_combo) or len(plain) > 8:
        return None, None
    from gate.rules.typed import judge_as  # the key rules are run as the typed rules run the shell's
    return judge_as(Key(keys=plain), ctx)  # type: ignore[arg-type]


@rule("block.gui.key-respelled", "Keys written in another client's spelling that the key rules block",
      risk=Risk.CRITICAL, types=("key",), confidence=0.8)
def key_respelled_block(ctx: Context) -> CheckResult:
    """Keys written as another automation library writes them (pynput's `Key.shift`, xdotool's `Shift_L`,
    `<ctrl>`, `VK_DELETE`, `{DEL}`, `⌘`) do what the same keys written plainly do: they are judged as those."""
    block, _ = ctx.derived(_respelled_verdict)
    return None if block is None else (block.reason, block.risk)


@rule("confirm.gui.key-respelled", "Keys written in another client's spelling that the key rules ask about",
      risk=Risk.HIGH, types=("key",), confidence=0.75)
def key_respelled_confirm(ctx: Context) -> CheckResult:
    """The keys of `block.gui.key-respelled` that the key rules would ask about, written plainly
    (`Key.shift`+`Key.delete` in a file manager is Shift+Delete there)."""
    block, confirm = ctx.derived(_respelled_verdict)
    return None if block is not None or confirm is None else (confirm.reason, confirm.risk)


# Shift+Delete in a mail client deletes the selected messages for good, past the Deleted Items / Trash folder
_MAIL_CLIENT = re.compile(r"\b(?:outlook|thunderbird|betterbird|evolution|apple mail|mail\.app|mailspring|geary|kmail|"
                          r"kontact|claws|sylpheed|em client|postbox|the bug|spark|airmail|mutt|neomutt|"
                          r"windows mail|mail and calendar|seamonkey mail|trojit[aá]|"
                          # webmail, named in its page's title
                          r"gmail|yahoo mail|proton ?mail|zoho mail|fastmail|gmx|icloud mail|aol mail|tuta(?:nota)?|"
                          # self-hosted webmail, named in its page's title
                          r"snappymail|rainloop|roundcube|horde webmail|sogo webmail|squirrelmail|zimbra|mailcow|"
                          r"nextcloud mail|cypht|afterlogic)\b|"
                          r"^mail$", re.IGNORECASE)
_MAIL_PAGE = re.compile(r"^https?://(?:outlook\.(?:live|office|office365)\.com|[\w.-]*mail\.[\w.-]+|"
                        r"[\w.-]+/(?:owa|webmail|roundcube|squirrelmail|horde|sogo)\b|[\w.:-]+/e-?mail(?:[/?#]|$))",
                        re.IGNORECASE)


# the mail client's own trash folder, named first in its window's title or in its page's address: what is deleted there
# is gone for good ("Deleted Items - Outlook", "Trash - Thunderbird", "Papierkorb", "#trash" of a webmail)
_TRASH_FOLDER = re.compile(either_spelling(
    r"^\s*(?:deleted items|deleted messages|trash|bin|recycle bin|papierkorb|gelöschte elemente|"
                           r"corbeille|éléments supprimés|papelera|elementos eliminados|lixeira|itens excluídos|"
                           r"cestino|posta eliminata|elementi eliminati|prullenbak|verwijderde items|корзина|"
                           r"удаленные|удалённые|ゴミ箱|削除済みアイテム|已删除邮件|垃圾箱|已刪除郵件)\b"),
                           re.IGNORECASE)
_TRASH_PAGE = re.compile(r"[#/](?:trash|bin|deleteditems|deleted[_-]?items|deleted)(?:[/?#&]|$)", re.IGNORECASE)
_PLAIN_DELETE = frozenset({"delete", "del", "ctrl+d", "backspace"})


@rule("confirm.gui.mail-permanent-delete-key", "Shift+Delete in a mail client, or Delete in its trash: messages "
      "deleted for good", risk=Risk.HIGH, types=("key",), confidence=0.75)
def mail_permanent_delete_key(ctx: Context) -> str | None:
    """Shift+Delete in a mail client (Outlook, Thunderbird, Evolution, Apple Mail, a webmail's pages) deletes the
    selected messages for good, past the Deleted Items or Trash folder that Delete moves them to; and Delete in
    that folder itself (its name in the window's title or the page's address) deletes them for good too.
    Delete in any other folder, and Shift+Delete in an editor (it cuts the line), do not ask."""
    combo = ctx.derived(key_combo)
    if combo != "shift+delete" and combo not in _PLAIN_DELETE:
        return None
    obs = ctx.observation
    if not (_MAIL_CLIENT.search(obs.app) or _MAIL_CLIENT.search(obs.window_title[:256]) or _MAIL_PAGE.match(obs.url)):
        return None
    if combo != "shift+delete":
        if _TRASH_FOLDER.match(obs.window_title[:256]) is None and _TRASH_PAGE.search(obs.url[:512]) is None:
            return None
        return "delete in a mail client's trash folder deletes the selected messages for good"
    return "shift+delete in a mail client deletes the selected messages for good, past the trash"


# keys that close a window or quit its program
_CLOSE_KEYS = frozenset({"alt+f4", "ctrl+q", "super+q", "ctrl+w", "super+w", "ctrl+f4", "ctrl+shift+w",
                         "shift+super+w", "ctrl+super+q"})
# a title that says the document has changes not yet saved: "*report.docx - Word", "● main.py - Code",
# "Untitled 3 — Edited", "draft.odt (modified)", "[Modified]", and in other languages
_UNSAVED = re.compile(
    r"^\s*[*●•◦]|\*\s*(?:[-—–|(]|$)|[—–-]\s*(?:edited|bearbeitet|modifié|modificado|modificato|gewijzigd|"
    r"編集済み|已编辑)\b|\((?:modified|unsaved|geändert|modifié|modificado|modificato|gewijzigd|未保存|未儲存)\)|"
    r"\[(?:modified|\+)\]|\bunsaved (?:changes|document|file)\b|\bnot saved\b|\bungespeichert\b|"
    r"\bnon enregistr[ée]|\bsin guardar\b|\bnon salvato\b|\bnão salvo\b|\bniet opgeslagen\b|未保存", re.IGNORECASE)
# a dialog asking whether to save changes before closing: the key that answers "Don't Save" loses them
_SAVE_QUESTION = re.compile(
    r"\b(?:save (?:the )?changes|save changes to|do you want to save|want to keep your changes|unsaved changes|"
    r"discard (?:the )?changes|änderungen (?:speichern|verwerfen)|enregistrer les modifications|"
    r"guardar (?:los )?cambios|salvare le modifiche|salvar (?:as )?altera[cç][oõ]es|wijzigingen opslaan)\b|"
    r"変更を保存|保存更改|是否保存", re.IGNORECASE)
_DISCARD_KEYS = frozenset({"alt+n", "ctrl+d", "super+d", "super+delete", "super+backspace", "alt+d", "alt+w",
                           "ctrl+delete"})


@rule("confirm.gui.close-unsaved-key", "Closing a window whose work is not saved, or answering Don't Save",
      risk=Risk.MEDIUM, types=("key",), confidence=0.7)
def close_unsaved_key(ctx: Context) -> str | None:
    """Alt+F4, Ctrl+Q, Cmd+Q or Ctrl+W on a window whose title says its document has unsaved changes ("*report.docx",
    "● main.py", "— Edited", "(modified)"), or the key that answers a "Save changes?" dialog with Don't Save (Alt+N,
    Ctrl+D, Cmd+D, Cmd+Delete): the work typed since the last save may be lost. Closing a saved document or a
    program with nothing open, and Enter (Save) on that dialog, pass."""
    combo = ctx.derived(key_combo)
    title = (ctx.observation.window_title or "")[:256]
    if not title:
        return None
    if combo in _CLOSE_KEYS and _UNSAVED.search(title):
        return f"{combo} closes {title!r}, whose changes are not saved"
    if combo in _DISCARD_KEYS and _SAVE_QUESTION.search(title):
        return f"{combo} answers {title!r} with Don't Save: the changes are lost"
    return None


# keys that take the machine or its programs down: a Mac's Force Quit window (and its force quit of the front
# program), the power, sleep-less shut down and log-off keys of a keyboard; Alt+F4 on the Windows desktop itself
# opens "Shut Down Windows"
_FORCE_QUIT = frozenset({"alt+shift+super+esc"})
_POWER_KEYS = frozenset({"xf86poweroff", "poweroff", "power", "xf86logoff", "logoff", "xf86shutdown", "shutdown",
                         "xf86reboot"})
_DESKTOP = re.compile(r"^(?:program manager|desktop|windows desktop)$", re.IGNORECASE)


@rule("confirm.gui.force-quit-key", "Force quit, power-off or log-off keys", risk=Risk.HIGH, types=("key",),
      confidence=0.75)
def force_quit_key(ctx: Context) -> str | None:
    """Cmd+Option+Shift+Esc (the front program killed at once; without Shift only the Force Quit window opens,
    and the click on "Force Quit" there is judged as a click), a keyboard's power
    or log-off key, and Alt+F4 on the Windows desktop itself (it opens "Shut Down Windows"): programs end without
    saving, or the session does. Alt+F4 on an ordinary window and Esc pass."""
    combo = ctx.derived(key_combo)
    if combo in _FORCE_QUIT:
        return f"{combo} force-quits programs: what they had not saved is lost"
    if combo in _POWER_KEYS:
        return f"{combo} shuts down or logs off the session"
    obs = ctx.observation
    if combo == "alt+f4" and _DESKTOP.match((obs.window_title or "").strip()) and \
            (not obs.app or "explorer" in obs.app.lower()):
        return "alt+f4 on the desktop opens Shut Down Windows"
    return None


# Select all, then delete, in one action: every file the folder shows, or every message of the mailbox
_FILE_MANAGER_PLACE = re.compile(
    r"\b(?:file explorer|explorer|files|nautilus|finder|dolphin|thunar|nemo|caja|pcmanfm|konqueror|total commander|"
    r"double commander|file manager|this pc|recycle bin|trash)\b", re.IGNORECASE)


def _select_all_then_delete(keys: list[str]) -> str | None:
    """The delete key pressed after Select All in the same action (`["ctrl+a", "delete"]`, "ctrl+a shift+delete"),
    written plainly, or None."""
    plain = respelled(keys)
    names = set(canonical_keys(plain).split("+"))
    if "a" not in names or not names & {"ctrl", "super"}:
        return None
    if "delete" in names:
        return "shift+delete" if "shift" in names else "delete"
    if "backspace" in names and "super" in names:
        return "cmd+backspace"
    return None


@rule("confirm.gui.select-all-delete-key", "Select All then Delete in a file manager or a mailbox, in one action",
      risk=Risk.HIGH, types=("key",), confidence=0.75)
def select_all_delete_key(ctx: Context) -> str | None:
    """Ctrl+A (Cmd+A) and Delete (Shift+Delete, Cmd+Backspace) in one action, in a file manager or a mail client:
    every file the folder shows, or every message of the mailbox, is deleted at once (Shift+Delete: for good). In
    an editor or a form the same keys clear a field, and pass."""
    what = _select_all_then_delete(list(ctx.action.keys))  # type: ignore[attr-defined]
    if what is None:
        return None
    obs = ctx.observation
    place = (obs.app or obs.window_title).strip()
    if _MAIL_CLIENT.search(obs.app) or _MAIL_CLIENT.search(obs.window_title[:256]) or _MAIL_PAGE.match(obs.url):
        return f"select all, then {what}, in a mail client deletes every message shown"
    if place and _FILE_MANAGER_PLACE.search(place):
        return f"select all, then {what}, in {place[:40]!r} deletes every file the folder shows"
    return None


# the keys a mail client's compose window sends the message with (Thunderbird, Outlook, Apple Mail, webmail)
_SEND_KEYS = frozenset({"ctrl+enter", "super+enter", "shift+super+d", "alt+s", "ctrl+return", "super+return"})
# a compose window's title: "Write: Invoice - Thunderbird", "Untitled - Message (HTML)", "New Message", "Re: ...",
# "Compose Mail - Gmail", and in other languages
_COMPOSING = re.compile(r"^\s*(?:write|verfassen|rédaction|redactar|escribir|scrivi|escrever|opstellen)\b\s*:|"
                        r"\bcompose(?: (?:a )?new)? (?:message|mail|e-?mail)\b|\s[-–—|]\s*new message\b|"
                        r"\bmessage \((?:html|plain text|rich text)\)|^\s*(?:new message|neue nachricht|"
                        r"nouveau message|nuevo mensaje|nuovo messaggio|nova mensagem|nieuw bericht)\b|"
                        r"^\s*(?:re|aw|wg|fw|fwd|tr|rv|"
                        r"sv|vs)\s*:|\bcompose\b|\b(?:reply|forward)\b.*\b(?:message|mail)\b", re.IGNORECASE)


@rule("confirm.gui.send-key", "The key that sends a mail from its compose window, or a chat message",
      risk=Risk.HIGH, types=("key",), confidence=0.75)
def send_key(ctx: Context) -> str | None:
    """Ctrl+Enter (Cmd+Enter, Alt+S) in a mail client's or a webmail's compose window sends the message, and
    Enter in a chat application's window or page sends what its message box holds: each is judged as a click
    on its Send button is (`confirm.gui.irreversible`), and asks. The same keys in an editor, a terminal or a
    search box of another page are not this rule's."""
    combo = ctx.derived(key_combo)
    obs = ctx.observation
    title = obs.window_title[:256]
    if combo in _CHAT_SEND_KEYS and chat_window(obs.url, title, obs.app):
        return f"{combo} sends the message written in {(title or obs.url)[:60]!r}"
    if combo not in _SEND_KEYS:
        return None
    mail = _MAIL_CLIENT.search(obs.app) or _MAIL_CLIENT.search(title) or _MAIL_PAGE.match(obs.url)
    # (Ctrl+Enter in a mail client's main window sends the compose pane or pop-up open over it: a webmail's
    # compose box keeps the inbox's title; it has no other meaning there)
    if not (mail and (_COMPOSING.search(title) or combo in _ANYWHERE_SEND_KEYS)) and \
            not (obs.url and compose_window(obs.url)) and not chat_window(obs.url, title, obs.app):
        return None
    return f"{combo} sends the message written in {(title or obs.url)[:60]!r}"


# Enter in a chat sends the message box's text (Shift+Enter is a new line there)
_CHAT_SEND_KEYS = frozenset({"enter", "return"})
_ANYWHERE_SEND_KEYS = frozenset({"ctrl+enter", "super+enter", "ctrl+return", "super+return"})


# a password manager's keys that put a stored secret where the agent or another window gets it: copy the password
# (KeePassXC and 1Password Ctrl/Cmd+C, Cmd+Shift+C; Bitwarden Ctrl+P), copy the one-time code (Ctrl+T), and
# auto-type it into the window behind (Ctrl+Shift+V; the global Ctrl+Alt+A)
_VAULT_KEYS = {"ctrl+c": "copies the selected entry's password", "super+c": "copies the selected entry's password",
               "ctrl+shift+c": "copies the selected entry's password",
               "shift+super+c": "copies the selected entry's password",
               "ctrl+p": "copies the selected entry's password", "ctrl+t": "copies the entry's one-time code",
               "super+t": "copies the entry's one-time code",
               "ctrl+shift+v": "types the entry's password into the window behind",
               "shift+super+v": "types the entry's password into the window behind",
               "alt+ctrl+a": "types the entry's password into the window behind"}


@rule("confirm.gui.vault-key", "A password manager's key that copies or types a stored password",
      risk=Risk.HIGH, types=("key",), confidence=0.8)
def vault_key(ctx: Context) -> str | None:
    """In a password manager's own window (KeePassXC, Bitwarden, 1Password, Keychain Access, a web vault's tab:
    `[context.vault-window]` of resources/cues.toml), the keys that copy the selected entry's password or one-time
    code, or auto-type it into another window: the secret leaves the vault for the clipboard, where the agent and
    every program read it, or for whatever window is behind. Asked as a click on the vault's "Copy password"
    is (`confirm.gui.consequential`)."""
    does = _VAULT_KEYS.get(ctx.derived(key_combo))
    if does is None or not in_vault_window(ctx):
        return None
    obs = ctx.observation
    return f"{ctx.derived(key_combo)} in {(obs.window_title or obs.app)[:60]!r} {does}"


# Ctrl+Shift+Enter in the Run box or the Start menu's search starts what is typed there as administrator
_ELEVATE_KEYS = frozenset({"ctrl+shift+enter", "ctrl+shift+return"})
_LAUNCHER = re.compile(r"^(?:run|ausführen|exécuter|ejecutar|esegui|executar|uitvoeren|uruchamianie|çalıştır|"
                       r"search|start|suche|rechercher|buscar|cerca|pesquisar|zoeken|windows search|"
                       r"searchhost|searchapp|startmenuexperiencehost|ファイル名を指定して実行|运行)$", re.IGNORECASE)


@rule("confirm.gui.elevate-key", "Starting what is typed in the Run box or Start search as administrator",
      risk=Risk.HIGH, types=("key",), confidence=0.8)
def elevate_key(ctx: Context) -> str | None:
    """Ctrl+Shift+Enter in the Run box or the Start menu's search starts the typed program or command with
    administrator rights (after the UAC prompt, which the next keys can answer). Enter alone there starts it as
    the person, judged by what was typed."""
    if ctx.derived(key_combo) not in _ELEVATE_KEYS:
        return None
    obs = ctx.observation
    if not (_LAUNCHER.match(obs.window_title.strip()) or _LAUNCHER.match(obs.app.strip())):
        return None
    return "ctrl+shift+enter starts what the Run box or Start search holds as administrator"


RULES: tuple[Rule, ...] = (run_box_on_lure, run_latest_download, key_respelled_block, key_respelled_confirm,
                           mail_permanent_delete_key, close_unsaved_key, force_quit_key, select_all_delete_key,
                           send_key, elevate_key, vault_key)
