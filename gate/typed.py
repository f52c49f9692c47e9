"""Where typed text goes, and so what it becomes.

    destination(ctx) -> Destination        (`ctx.derived(destination)` for a `type` action)
    as_command(text) -> str | None          the command a terminal or Run dialog would run
    as_url(text) -> str | None              the URL an address bar would open (None: a search)
    code_editor(ctx) -> bool                the field is a code or text editor (what is typed lands in a file)
    console_program(ctx) -> str | None      the interpreter a language console runs typed code with
    in_terminal(command) -> str | None      the command a terminal emulator is told to run (`xterm -e ...`)
    launched(ctx) -> Launch | None          the command line a launcher runs (`ctx.derived(launched)`)
    escaped(ctx) -> tuple[Escape, ...]      the shell escapes typed into a program that runs shell lines itself
    settings_page(command) -> bool          the command only opens a settings page or a system console or viewer
    mail_auth_record(text) -> str | None    the text is an ordinary SPF, DKIM or DMARC record value (its kind)

Text typed into a terminal, a shell prompt or a Run dialog (Alt+F2, krunner, Win+R) is a command once
Enter is pressed; text typed into a browser's address bar is a navigation. Which one it is comes from
what deskgate observed (the active window's app and title: trusted) and from the target the agent names
(its role, label and name: a claim, but one that can only make the gate stricter here). Anything else is
an ordinary field; with neither a target nor an observed window the destination is unknown. A whole
URL typed into a browser with no target named is the address bar (Ctrl+L, then typing).

Two more places run what is typed, each in its own language: a browser's developer console runs JavaScript
in the page, with the page's cookies and storage at hand (the window is DevTools or a web inspector, the target
names a JavaScript console or a browser automation tool's script box such as `browser_evaluate`, or a bare
"Console" in a browser receives JavaScript); a database console runs SQL, a store's commands or Salesforce's
anonymous Apex (a query editor or query tool, a database client's window, a `mysql>` prompt); a
language console runs Python, Ruby, JavaScript, PHP or Groovy on the machine or the server behind it (a Python
or IPython shell, a notebook's code cell, `rails console`, a Node REPL, Laravel's tinker, Jenkins's script
console).

The text is judged when it is typed, as the whole line it makes (the line so far, which the supervisor keeps
per window: gate/lines.py), and again when a line end runs it (a `key` Return, or a line end inside the text).
A command typed without Enter is judged as if it ran.

Launchers find an app by name, and some run a shell line too: PowerToys Run, its Command Palette, Flow
Launcher, Wox and Alfred run what follows their `>` prefix as a command; Windows' Start menu search and the
taskbar's search box run a whole command line given to them, as Win+R does. `launched` gives that line, so the
shell rules judge it. A name with no prefix in a prefix launcher is an app search and stays text.

Editors, pagers, file managers and keyboard browsers run shell lines too: Vim's `:!cmd`, Emacs's `M-!`,
qutebrowser's `:spawn` (gate/escapes.py has each program's grammar, from its documentation). `escaped` gives
the command lines typed text hands to a shell there, or a line end runs: the program is named by the target,
the window or the app; the text is the typed text alone and the line so far with it, which starts at the prompt
a key opened (M-!, Escape, ^T: gate/lines.py). What is typed there otherwise stays text.
"""

from __future__ import annotations

import enum
import functools
import re
import shlex
from typing import TYPE_CHECKING, NamedTuple

from gate import tui
from gate.attack_console import hosts_console
from gate.escapes import Escape, command_line, dialog_field, escapes, opener, shell_prompt
from gate.escapes import program as named_program
from gate.lines import pressed
from gate.normalise import normalise
from gate.prefix import Guarded, ascii_need, literals
from gate.shell import BROWSER_APP, is_terminal

if TYPE_CHECKING:
    from gate.rules.base import Context

__all__ = ["Destination", "Escape", "Launch", "as_command", "as_url", "code_editor", "code_step", "console_program",
           "destination", "escape_program", "escaped", "field_command", "in_terminal", "launched", "mail_auth_record",
           "settings_page"]


class Destination(enum.StrEnum):
    TERMINAL = "a terminal"
    RUN_DIALOG = "a Run dialog"
    ADDRESS_BAR = "the address bar"
    FIELD = "a field"
    UNKNOWN = "an unknown place"
    SCRIPT_CONSOLE = "a browser's developer console"
    CODE_CONSOLE = "a language console"
    DATABASE_CONSOLE = "a database console"
    COMMAND_FIELD = "a field whose command runs"
    ATTACK_CONSOLE = "an attack framework's console"
    PROGRAM = "a terminal program's own prompt"

    @property
    def runs_commands(self) -> bool:
        return self in (Destination.TERMINAL, Destination.RUN_DIALOG, Destination.COMMAND_FIELD)


# target role / label / name that says "this is a shell" (the agent's own description of the target)
_TERMINAL_TARGET = re.compile(
    # (a console run as administrator is titled "Administrator: Windows PowerShell"). A prompt is a bare `$` or
    # `#`, or one after a path, a user@host or a shell's name ("~/src $", "bash-5.2#"): a form's "Unit #" or
    # "Amount $" is a field whose label ends in a sign, not a prompt
    r"^(?:(?:administrator: ?|admin: ?)?(?:the |a )?(?:terminal|console|shell|command prompt|cmd(?:\.exe)?|"
    r"(?:windows )?powershell|pwsh|bash|zsh|"
    r"fish|sh|xterm|konsole|gnome terminal|command line|cli|tty)(?: (?:input|window|emulator|session|tab|prompt|"
    r"area|text area|pane|panel|view))?)$|\b(?:terminal|shell|console) (?:input|emulator|session|prompt)\b|"
    r"\bcommand (?:line|prompt)\b|^[\w.-]+@[\w.-]+:\S*\s?[$#]|"
    r"^(?:[~/]\S*|[\w.-]+@\S*|\S*:[~/]\S*|[\w-]*sh(?:-[\d.]+)?|root)?\s?[$#] ?$|"
    # a shell in a web page or an app's pane: "Cloud Shell", "Web terminal", "Terminal 2", "xterm.js terminal"
    r"\b(?:cloud|web|browser|remote|ssh|jupyter|online|integrated|embedded|xterm(?:[. ]js)?|vs ?code|container|pod|"
    r"kubectl|serial) (?:shell|terminal|console)\b|^(?:terminal|console|shell) \d{1,2}$|\bcloudshell(?: terminal)?$")
# a program's own console in its web UI (Vault's and OpenBao's take `write`, `list`, `fullscreen`, not shell lines):
# judged as that program's commands by gate/rules/ci_script_console.py
_OWN_CLI_TARGET = re.compile(r"\b(?:vault|openbao)\b.*\b(?:cli|console)\b")
# a Run dialog: window titles and apps of launchers, or a target that asks for a command to run
_RUN_WINDOW = Guarded(re.compile(
    r"^(?:run|run application|run a command|run command|execute|execute command|launch|launcher|krunner|gmrun|"
    r"xfrun4|xfce4-appfinder|grun|dmenu|rofi|ulauncher|albert|synapse|wofi|fuzzel|alt\+f2)$|\bkrunner\b|"
    r"\brun dialog\b"))
_RUN_TARGET = re.compile(
    r"\b(?:run dialog|run box|enter (?:a |the )?command|type (?:a |the )?command|command to run|run a command|"
    r"execute (?:a |the )?command|name of a program|krunner|alt\+f2|(?<!auto )(?<!auto-)run prompt)\b|"
    r"^(?:run|command|open:?)$")
# (an editor's "Auto-run prompt" is its setting for what the agent may run unasked: instructions, not a command)
# terminals the policy's `shell.terminal_windows` may not name: emulators of every platform by their app or window
# name, remote shells (PuTTY and the SSH clients, a title that is an `ssh` line), Git Bash and the MSYS/Cygwin
# consoles, and the Windows console under its own title in other languages ("Eingabeaufforderung",
# "Invite de commandes", "命令提示符")
_MORE_TERMINALS = Guarded(re.compile(
    r"^(?:hyper|warp|rio|contour|sakura|blackbox|black box|terminus|termite|kgx|st|console)(?:\.exe|\.app)?$|"
    r"\b(?:ghostty|warp terminal|st-256color|stterm|mintty|cygwin|msys2?|mingw(?:32|64)?|git bash|"
    r"putty|kitty\.exe|superputty|mobaxterm|securecrt|termius|tera ?term|xshell|solar-putty|royal ?ts|"
    r"conemu(?:64)?|cmder|fluent terminal|extraterm|cool-retro-term|ptyxis|gnome console|"
    r"deepin-terminal|roxterm|eterm|aterm|lxterm|xfce terminal|mate terminal|"
    r"qterminal|cosmic-term|zellij|byobu|tmux|screen session|termux|terminal\.app|"
    r"windows powershell(?: ise)?|powershell ise|powershell \d(?:\.\d+)*(?: \(x(?:64|86)\))?|"
    r"eingabeaufforderung|invite de commandes|s[ií]mbolo del sistema|prompt dei comandi|prompt de comando|"
    r"linha de comando|opdrachtprompt|wiersz polecenia|командная строка|komut istemi|"
    r"terminal(?:fenster)?|konsole)\b|"
    r"命令提示符|命令提示字元|コマンド ?プロンプト|명령 프롬프트|終端機|终端|ターミナル|터미널|"
    # a title that is a remote shell's line or prompt: "ssh bob@10.0.0.5", "root@web-01:~#", "MINGW64:/c/Users"
    # a console run as administrator, in the system's language: "Administrador: Símbolo del sistema"
    r"^[^\W\d]{4,16} ?: ?(?:windows powershell|powershell|pwsh|command prompt|cmd(?:\.exe)?)\b|"
    r"^(?:ssh|mosh|telnet) [\w.@-]+|^[\w.-]+@[\w.-]+:\S*\s?[$#]?$|^(?:mingw(?:32|64)|msys|ucrt64|clang64):"))
# the Run dialog under its own title in other languages (Windows' Win+R box)
_MORE_RUN_WINDOWS = re.compile(
    r"^(?:ausfuhren|ausführen|executer|exécuter|ejecutar|esegui|executar|uitvoeren|uruchom|uruchamianie|"
    r"выполнить|calistir|çalıştır|spustit|futtatas|futtatás|kor|kör|kjor|kjør|suorita)$|"
    r"^(?:ファイル名を指定して実行|运行|執行|실행)$")
# the browser's address bar (role, label or name of the target)
_ADDRESS_TARGET = Guarded(re.compile(
    r"\b(?:address bar|address and search bar|url bar|urlbar|location bar|omnibox|awesome ?bar|address field|"
    r"search or (?:enter|type) (?:an? )?(?:web )?(?:address|url)|enter (?:an? )?(?:web )?(?:address|url)|"
    r"(?:web|site) address|url field|go to (?:a )?(?:web ?site|url|address))\b|^(?:url|web address)$"))


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_BROWSER = BROWSER_APP


# a browser's developer tools, by the window's title or app, or the target the agent names
_DEVTOOLS_WINDOW = re.compile(r"\b(?:devtools|dev tools|developer tools|web console|browser console|web inspector|"
                              r"browser toolbox|javascript console|js console)\b")
_DEVTOOLS_WINDOW = Guarded(_DEVTOOLS_WINDOW)
_DEVTOOLS_TARGET = Guarded(re.compile(r"\b(?:devtools|dev tools|developer tools|developer console|web inspector|"
                              r"(?:js|javascript|web|browser|devtools|dev tools|page) console)\b|"
                              # a browser automation tool's box for script run in the page (`browser_evaluate`,
                              # `page.evaluate`, "JavaScript to execute")
                              r"\b(?:browser_evaluate|page\.evaluate|evaluate_?script|execute_?script|run_?javascript)\b|"
                              r"\b(?:evaluate|execute|run|inject) (?:the )?(?:expression|script|javascript|js)\b|"
                              r"\b(?:javascript|js) (?:expression|snippet|code|to (?:run|execute|evaluate))\b"))
# a bare console: a browser's when it receives JavaScript, else a terminal's
_BARE_CONSOLE = re.compile(r"^(?:the |a )?console(?: (?:input|prompt|tab|panel|pane))?$")
_JAVASCRIPT = re.compile(
    r"\b(?:document|window|localStorage|sessionStorage|navigator|indexedDB|location|console|JSON|Object|Array|"
    r"XMLHttpRequest|fetch|alert|eval|cookieStore)\s*[.(\[]|=>|\b(?:const|let|var)\s+\w+\s*=|\bfunction\s*\w*\(|"
    r"\bnew\s+(?:Image|XMLHttpRequest|WebSocket|Function)\b|\$\$?\(")
# a database console: a client's window or app, or a target that names a query editor or a client's prompt
_DATABASE_WINDOW = Guarded(re.compile(
    r"\b(?:dbeaver|pgadmin|datagrip|sql ?workbench|mysql workbench|heidisql|sql server management studio|ssms|"
    r"azure data studio|tableplus|beekeeper studio|phpmyadmin|adminer|mongodb compass|robo ?3t|studio 3t|"
    r"redisinsight|sqlitebrowser|db browser for sqlite|query tool|query editor|sql editor|sql console|sql worksheet|"
    r"sql lab|mongo(?:db)? shell|mongosh|execute anonymous|anonymous apex|sqlite ?studio|sql developer|"
    r"oracle sql|toad(?: for \w+)?|navicat|sequel (?:ace|pro)|postico|dbvisualizer|dbvis|aqua data studio|sqlyog|"
    r"pgcli|mycli|litecli|dbgate|valentina studio|querious|razorsql|squirrel sql|dbschema|redash|"
    r"metabase|superset|snowsight|bigquery|athena query|query analyzer|sql query|sql window|"
    r"db ?browser|database client|database console|"
    # analytic engines' and warehouses' own shells, by name ("Trino CLI", "SnowSQL", "Beeline")
    r"(?:trino|presto) cli|snowsql|beeline|spark-sql|clickhouse client|impala shell|usql)\b|"
    # ... and by prompt ("trino:sales> ", "presto:default> ", a SnowSQL "user#WAREHOUSE@DB.SCHEMA> ")
    r"^(?:trino|presto)(?::[\w.-]{1,40})?> ?$|^[\w.-]{1,40}#[\w.-]{1,60}@[\w.-]{1,80}> ?$|"
    # a database shell's prompt as a window's title ("mysql> ", "postgres=# ", "sqlite> ", "redis 127.0.0.1:6379> ")
    r"^(?:mysql|mariadb|sqlite|redis[\w .:-]*|[\w-]{1,30}=[>#]|sql|cqlsh[\w:]*|mongo(?:sh)?[\w :/.-]*|"
    r"test|admin|local)> ?$|^[\w-]{1,30}=[#>] ?$"))
_DATABASE_TARGET = Guarded(re.compile(
    r"\b(?:sql|cypher|cql|kql)(?: \w+)? (?:editor|console|tool|window|box|input|runner|worksheet|workbench|prompt|"
    r"shell|pane|area)\b|\bquery (?:editor|console|tool|runner|workbench|worksheet)\b|^sql(?: query)?$|"
    r"^(?:mysql|mariadb|psql|postgres(?:ql)?|sqlite3?|mongo(?:sh)?|redis(?:-cli)?|cqlsh|sqlplus|snowsql|duckdb|"
    r"clickhouse|sqlcmd)(?: ?(?:shell|console|prompt|cli))?\W{0,3}$|"
    r"\b(?:mongo(?:db)? shell|mongosh|redis-cli|redis cli|sqlplus|psql|sqlcmd|cqlsh)\b|"
    # Salesforce's anonymous Apex: DML statements run on the org's records
    r"\b(?:execute anonymous|anonymous apex|apex (?:code|editor|console|window|script))\b|"
    r"^[\w-]{1,20}(?:=[>#]|>) ?$"))
# a database shell in a terminal, by the terminal's title: its name or its prompt
_DB_SHELL_TITLE = re.compile(r"^(?:mongosh|mongo|psql|mysql|mariadb|sqlite3?|redis-cli|cqlsh|sqlplus|sqlcmd|pgcli|"
                             r"mycli|litecli|duckdb|clickhouse-client)\b|\b(?:mongosh|redis-cli|sqlplus|pgcli|mycli)\b|"
                             r"^(?:mysql|mariadb|sqlite|[\w-]{1,30}=[>#]) ?>? ?$")
# a page that is a database's query editor, by its path ("/sql", "/sql-editor", "/phpmyadmin/")
_DATABASE_URL = re.compile(r"^[a-z][a-z0-9+.-]*://[^/?#]*/(?:[^?#]*/)?(?:sql|sql-?editor|sql-?lab|query-?editor|"
                           r"sql-?(?:console|runner|workbench|worksheet)|(?:db|database|query)-?console|bigquery|"
                           r"phpmyadmin|adminer(?:\.php)?)(?:[/?#]|$)", re.IGNORECASE)
# a field named for a statement (`Query`, `SQL`) on an administration, console or data page: a query box there
# runs what is typed (a search box named Query on any other page does not)
_STATEMENT_FIELD = re.compile(r"^(?:query|sql|sql query|statement|sql statement|query text)$")
_CONSOLE_PAGE = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^?#]*?[/.-])?(?:admin|console|db|dbadmin|database|sql|"
                           r"warehouse|analytics)(?:[/.-]|$)", re.IGNORECASE)
# a code or text editor: what is typed there lands in a file
_EDITOR_WINDOW = Guarded(re.compile(
    r"\b(?:visual studio code|vs ?code|vscodium|code - oss|sublime text|atom|intellij|pycharm|webstorm|goland|"
    r"clion|rider|phpstorm|android studio|eclipse|netbeans|xcode|vim|gvim|neovim|nvim|emacs|nano|gedit|kate|"
    r"notepad\+\+|notepad|textedit|text editor|zed|helix|cursor|windsurf)\b"))
_EDITOR_TARGET = re.compile(r"\b(?:code editor|source editor|text editor|source code|editor content|file content)\b|"
                            r"(?:^|[\s/])\.env\b|^code$")
_EDITOR_TARGET = Guarded(_EDITOR_TARGET)


def code_editor(ctx: Context) -> bool:
    """The typed text lands in a file: the window is a code or text editor, or the target names an editor."""
    obs = ctx.observation
    window = normalise(obs.window_title)
    app = normalise(obs.app)
    if (app and (_EDITOR_WINDOW.search(app) or app == "code")) or (window and _EDITOR_WINDOW.search(window)):
        return True
    return any(_EDITOR_TARGET.search(line) for line in ctx.derived(_target_parts))


# a language console, by the window, the app or the target, and the interpreter its code runs like
_CODE_CONSOLES = (
    # a notebook (JupyterLab, Notebook, Colab, a `.ipynb` open in an editor) runs its cells' code when run
    ("python3", re.compile(r"\b(?:python (?:console|shell|repl|interpreter|prompt)|ipython|jupyter(?:lab| lab)?|"
                           r"notebook cell|code cell|django shell|flask shell|idle shell|python interactive|"
                           r"colab(?:oratory)?)\b|\w\.ipynb\b(?! at )|^>>> ?$")),
    ("ruby", re.compile(r"\b(?:irb|pry|rails console|ruby (?:console|shell|repl))\b")),
    ("node", re.compile(r"\b(?:node(?:\.js|js)? (?:repl|console|shell)|deno repl|bun repl)\b")),
    ("php", re.compile(r"\b(?:php (?:console|shell|repl)|psysh|tinker)\b")),
    ("groovy", re.compile(r"\b(?:script console|groovy (?:console|script|shell)|jenkins script)\b")),
)
_CODE_CONSOLES = tuple((program, Guarded(pattern)) for program, pattern in _CODE_CONSOLES)  # (read for every place)
# whether an ASCII place holds a word one of them needs, in one search (None: one of them needs no word)
_CONSOLE_NEEDS = [ascii_need(pattern.pattern, pattern.flags) for _, pattern in _CODE_CONSOLES]
_CONSOLE_WORDS = literals(frozenset().union(*_CONSOLE_NEEDS)) if all(_CONSOLE_NEEDS) else None
# Jenkins's script console, by its page: /script or /manage/script (a node's /computer/NAME/script too)
_GROOVY_URL = re.compile(r"^[a-z][a-z0-9+.-]*://[^/?#]*/(?:[^?#]*/)?(?:manage/)?script/?(?:[?#]|$)", re.IGNORECASE)


def console_program(ctx: Context) -> str | None:
    """The interpreter whose one-liner the typed code of a language console is (`python3`, `ruby`, `node`,
    `php`, `groovy`), or None when the destination is no language console."""
    obs = ctx.observation
    places = (normalise(obs.window_title), normalise(obs.app), *ctx.derived(_target_parts))
    if _CONSOLE_WORDS is None or any(p and (not p.isascii() or _CONSOLE_WORDS.search(p.lower())) for p in places):
        for program, pattern in _CODE_CONSOLES:
            if any(p and pattern.search(p) for p in places):
                return program
    if (interpreter := tui.repl(obs.app, obs.window_title)) is not None and \
            is_terminal(ctx.compiled, obs.app, obs.window_title):
        return interpreter  # an interpreter's console running in a terminal (gate/tui.py)
    url = getattr(ctx.action, "url", None) or obs.url
    if url and _GROOVY_URL.match(url):
        return "groovy"
    return _code_step(ctx, url, places)


# a workflow or automation tool's code step (n8n's Code node, Node-RED's function node, Pipedream's and Windmill's
# steps, Zapier's Code step, Apps Script): the code runs on the server that holds every credential of the workflows,
# by its field's name and the tool's page, window or app
_CODE_FIELD = re.compile(r"^(?:code|js code|javascript|javascript code|python|python code|python script|"
                         r"function|function code|script|code editor|code step|code node|on message)$")
_WORKFLOW_PLACE = re.compile(r"(?:n8n|node-?red|pipedream|windmill|zapier|make\.com|integromat|activepieces|"
                             r"apps script|google apps script|airtable scripting|retool|budibase|appsmith|kestra|"
                             r"huginn|automatisch|workflow editor)\b")
_WORKFLOW_URL = re.compile(r"^[a-z][a-z0-9+.-]*://[^/?#]*/(?:[^?#]*/)?(?:workflows?|flows?|scenarios?|zaps?|"
                           r"automations?|pipelines?/[^?#]*/steps|scripts?/[^?#]*edit|macros/d)(?:[/?#]|$)|"
                           r"^[a-z][a-z0-9+.-]*://script\.google\.com/", re.IGNORECASE)
_REPOSITORY_FILE = re.compile(r"/(?:\.github|\.gitlab|blob|edit|tree|new|-/(?:edit|blob|new|ide))/", re.IGNORECASE)
# the code is Python (else a workflow's code step runs JavaScript, as its default)
_PYTHON = re.compile(r"^\s*(?:import \w|from [\w.]+ import |def \w+\(|print\(|for \w+ in |with open\()", re.MULTILINE)


def code_step(ctx: Context) -> bool:
    """The typed text goes into a workflow or automation tool's code step (its code runs on the tool's server)."""
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url
    places = (normalise(obs.window_title), normalise(obs.app), *ctx.derived(_target_parts))
    return _code_step(ctx, url, places) is not None


def _code_step(ctx: Context, url: str, places: tuple[str, ...]) -> str | None:
    """The interpreter of a workflow tool's code step the typed code goes into (`node`, or `python3` for Python),
    or None when the field is no such step."""
    target = ctx.derived(_target_parts)
    if not any(_CODE_FIELD.match(part) for part in target):
        return None
    if url and _REPOSITORY_FILE.search(url[:2048]):
        return None  # a workflow's file in a code host's editor (`.github/workflows/ci.yml`): text of a file
    if not ((url and _WORKFLOW_URL.match(url[:2048])) or any(p and _WORKFLOW_PLACE.search(p) for p in places)):
        return None
    text = getattr(ctx.action, "text", "") or ""
    return "python3" if _PYTHON.search(text[:4096]) else "node"


def _console(ctx: Context, window: str, app: str, target: tuple[str, ...]) -> Destination | None:
    """A browser's developer console or a database console, or None."""
    if (window and _DEVTOOLS_WINDOW.search(window)) or (app and _DEVTOOLS_WINDOW.search(app)) or \
            any(_DEVTOOLS_TARGET.search(line) for line in target):
        return Destination.SCRIPT_CONSOLE
    if (window and _DATABASE_WINDOW.search(window)) or (app and _DATABASE_WINDOW.search(app)) or \
            any(_DATABASE_TARGET.search(line) for line in target):
        return Destination.DATABASE_CONSOLE
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    if url and (_DATABASE_URL.match(url) or (any(_STATEMENT_FIELD.match(line) for line in target) and
                                             _CONSOLE_PAGE.match(url))):
        return Destination.DATABASE_CONSOLE
    if ctx.derived(console_program) is not None:
        return Destination.CODE_CONSOLE
    if any(_BARE_CONSOLE.match(line) for line in target) and (ctx.observation.url or _BROWSER.search(app)):
        text = getattr(ctx.action, "text", "")
        if _JAVASCRIPT.search(text):
            return Destination.SCRIPT_CONSOLE
    return None


# launchers that run a shell line typed after `>` (their shell plugin's keyword), by the target, window or app
_PREFIX_LAUNCHER = re.compile(r"\b(?:powertoys run|powertoys\.powerlauncher|powerlauncher|powertoys command palette|"
                              r"cmdpal|flow launcher|flow\.launcher)\b|"
                              # a launcher named like a person: the name alone ("Alfred", "Wox launcher")
                              r"^(?:alfred|wox)(?: (?:\d|search|launcher|bar|input|prompt|window))?$")
_PREFIX_LAUNCHER = Guarded(_PREFIX_LAUNCHER)
# launchers that run a whole command line: Windows' Start menu search and the taskbar's search box
_LINE_LAUNCHER = Guarded(re.compile(r"\b(?:start menu(?: search)?|start search|windows search|search windows|"
                            r"type here to search|searchhost|searchapp|search(?:ui)?\.exe)\b"))
_SHELL_PREFIX = re.compile(r"^\s*>+\s*")


class Launch(NamedTuple):
    launcher: str  # the launcher as it was named
    command: str  # the command line it runs
    prefixed: bool  # typed after the launcher's shell prefix: meant as a command, not an app's name


def launched(ctx: Context) -> Launch | None:
    """The command line a launcher runs from the typed text, or None (no launcher, or an app search)."""
    obs = ctx.observation
    text = getattr(ctx.action, "text", "")
    places = (*ctx.derived(_target_parts), normalise(obs.window_title), normalise(obs.app))
    for place in places:
        if not place:
            continue
        if _PREFIX_LAUNCHER.search(place):
            m = _SHELL_PREFIX.match(text)
            command = as_command(text[m.end():]) if m is not None else None
            return Launch(place, command, True) if command is not None else None
        if _LINE_LAUNCHER.search(place):
            command = as_command(text)
            return Launch(place, command, False) if command is not None else None
    return None


def escape_program(ctx: Context) -> str | None:
    """The program with a shell escape that the target, the window or the app names (gate/escapes.py), or None.
    Once per context."""
    obs = ctx.observation
    return named_program(ctx.derived(_target_parts)) or _observed_program(obs.window_title) or \
        _observed_program(obs.app)


@functools.lru_cache(maxsize=1024)
def _observed_program(place: str) -> str | None:
    """The program a window title or an app names (they repeat from action to action: kept, bounded)."""
    return named_program((normalise(place),)) if place else None


def escaped(ctx: Context) -> tuple[Escape, ...]:
    """The shell escapes a `type` action makes in a program that runs shell lines itself (its text alone, and the
    line so far with it), or the line a `key` Return ends there makes. Once per context."""
    line = ctx.observation.line
    if ctx.type == "key":
        from gate.rules.gui import key_combo

        if line is None or not pressed(line, ctx.derived(key_combo)).ends:
            return ()
    elif ctx.type != "type":
        return ()
    name = ctx.derived(escape_program)
    if name is None:
        return ()
    target = ctx.derived(_target_parts)
    if dialog_field(name, target):
        return ()
    prompt = command_line(target)
    found: tuple[Escape, ...] = ()
    if ctx.type == "type":
        text = ctx.action.text  # type: ignore[attr-defined]
        found = escapes(name, text, "shell" if shell_prompt(target) else "", prompt)
        if line is not None and (line.text or line.why):
            found += escapes(name, line.text + text, opener(line.why), prompt)
        return tuple(dict.fromkeys(found))
    if line is None:  # (a key that ends no line returned above)
        return ()
    for text in dict.fromkeys((line.text, line.raw)):
        if text.strip():
            found += escapes(name, text, opener(line.why) if text == line.text else "", prompt)
    return tuple(dict.fromkeys(found))


def _target_parts(ctx: Context) -> tuple[str, ...]:
    """The target's role, label and name, each normalised on its own (one per line of a multi-line name):
    each is matched alone, so `role: terminal` is a terminal whatever the label says."""
    target = ctx.action.target
    if target is None:
        return ()
    parts = []
    for p in (target.role, target.label, target.name):
        if p:
            parts.extend(n for line in p.split("\n") if (n := normalise(line)))
    return tuple(parts)


def destination(ctx: Context) -> Destination:
    """Where the typed text of `ctx` goes (see the module docstring)."""
    obs = ctx.observation
    if (obs.app or obs.window_title) and is_terminal(ctx.compiled, obs.app, obs.window_title):
        if _DB_SHELL_TITLE.search(normalise(obs.window_title)):
            return Destination.DATABASE_CONSOLE  # psql, mongosh or a `mysql>` prompt running in the terminal
        if hosts_console(obs.window_title, ctx.derived(_target_parts)):
            return Destination.ATTACK_CONSOLE  # sliver >, msf6 >, meterpreter > running in the terminal
        if tui.repl(obs.app, obs.window_title) is not None and not tui.command_prompt(ctx.derived(_target_parts)):
            return Destination.CODE_CONSOLE  # python3, node, irb running in the terminal: its language
        if tui.program_input(obs.app, obs.window_title, ctx.derived(_target_parts)):
            return Destination.PROGRAM  # lazygit's commit prompt, a framework's menu: the program's input
        return Destination.TERMINAL
    window = normalise(obs.window_title)
    app = normalise(obs.app)
    raw_window = " ".join(obs.window_title[:256].lower().split())  # Cyrillic as written: folding reads it as Latin
    if (window and (_RUN_WINDOW.search(window) or _MORE_RUN_WINDOWS.search(window) or
                    _MORE_RUN_WINDOWS.search(raw_window))) or (app and _RUN_WINDOW.search(app)):
        return Destination.RUN_DIALOG
    if _other_terminal(app, window) or (raw_window != window and _other_terminal(app, raw_window)):
        return Destination.TERMINAL
    target = ctx.derived(_target_parts)
    if _terminal_page(obs.url, window, target):
        return Destination.TERMINAL
    if _command_field(obs.url, window, app, target):
        return Destination.COMMAND_FIELD
    console = _console(ctx, window, app, target)
    if console is not None:
        return console
    if target:
        for line in target:
            if _ADDRESS_TARGET.search(line):
                return Destination.ADDRESS_BAR
            if _RUN_TARGET.search(line):
                return Destination.RUN_DIALOG
            if _TERMINAL_TARGET.search(line) and not _OWN_CLI_TARGET.search(line):
                return Destination.TERMINAL
        return Destination.FIELD
    if _BROWSER.search(app) or (obs.url and not app):
        # a browser with nothing named as the target: a whole URL typed there is what Ctrl+L then typing does
        text = getattr(ctx.action, "text", "")
        if _SCHEME.match(text.strip()) or text.strip().lower().startswith("www."):
            return Destination.ADDRESS_BAR
    if obs.app or obs.window_title:
        return Destination.FIELD
    return Destination.UNKNOWN


# a shell in a web page, by the page's address: the clouds' own (AWS CloudShell, Session Manager and EC2 Instance
# Connect, Google Cloud Shell and SSH-in-browser, Azure Cloud Shell, IBM, Oracle, Alibaba), a notebook server's
# terminal (`/terminals/1`), a server panel's (Cockpit, Webmin, pfSense's command page, Proxmox's xterm.js), a
# hosted console (PythonAnywhere), Kubernetes' and Portainer's exec pages, and the web terminals ttyd, GoTTY,
# WeTTY and Shell In A Box
_TERMINAL_URL = re.compile(
    r"^[a-z][a-z0-9+.-]*://(?:"
    r"[^/?#]*console\.aws\.amazon\.com/(?:cloudshell|systems-manager/session-manager/i-|ec2-instance-connect/ssh)|"
    r"(?:shell|ssh)\.cloud\.google\.com/|console\.cloud\.google\.com/[^#]*[?&]cloudshell=true|"
    r"shell\.azure\.com/|portal\.azure\.com/[^?]*#cloudshell|cloud\.ibm\.com/shell|shell\.aliyun\.com/|"
    r"[^/?#]*cloud\.oracle\.com/[^#]*[?&]cloudshell=true|(?:www\.)?pythonanywhere\.com/user/[^/]+/consoles/\d|"
    r"[^/?#]+/(?:[^?#]*/)?(?:terminals/(?:websocket/)?\d+|system/terminal(?:\.html)?|diag_command\.php)(?:[/?#]|$)|"
    r"[^/?#]+/(?:wetty|ttyd|gotty|shellinabox|webssh|web-?terminal)(?:[/?#]|$)|[^/?#]+:10000/shell/|"
    r"[^/?#]+/[^#]*[?&](?:console=shell|xtermjs=1)|[^/?#]+/#!?/(?:shell/|\d+/docker/containers/[\w-]+/exec)|"
    r"[^/?#]+:(?:7681|4200)(?:[/?#]|$))", re.IGNORECASE)
# ... by the page's title (a browser shows it in the window's title)
_TERMINAL_PAGE_TITLE = re.compile(
    r"^(?:aws cloudshell|cloudshell|cloud shell|azure cloud shell|google cloud shell|ttyd|gotty|wetty|"
    r"shell in a box|web ?ssh|jupyter terminal|terminal \d+ - jupyterlab)\b|"
    r"\b(?:cloudshell|cloud shell|ssh-in-browser|ttyd|gotty|wetty|shellinabox|shell in a box)\b.{0,60}"
    r" [-—–] (?:mozilla firefox|google chrome|chromium|microsoft edge|safari|opera|brave|vivaldi)$")
# a field on such a page that is not the shell: its search box, a chat or feedback form, the address bar
_PAGE_FIELD = re.compile(r"\b(?:search|find|filter|address|url|chat|message|comment|comments|feedback|ask|"
                         r"e-?mail|password|name|title|subject|q)\b")


def _terminal_page(url: str, window: str, target: tuple[str, ...]) -> bool:
    """The page is a shell in a browser (`_TERMINAL_URL`, or its title with no other page's address) and the
    target is no other field of that page (a search box, a feedback form)."""
    if url:
        if not _TERMINAL_URL.match(url[:2048]):
            return False
    elif not (window and _TERMINAL_PAGE_TITLE.search(window)):
        return False
    return not any(_PAGE_FIELD.search(part) for part in target)


# a field whose text is a command line that runs, now or when a task fires: a scheduled task's action, a file
# transfer client's custom command, a remote session's startup command, a build step's shell, a launcher's or an
# automation's shell action, a container's command override, a run configuration's program. By its label, in the
# languages the programs ship in ("Programm/Skript", "Programme/script", "Programa o script", "コマンド")
_COMMAND_LABEL = re.compile(
    r"^(?:(?:the )?(?:program(?:me)?|programm|programa|programma|programmа)(?: ?(?:/|or|o|oder|ou|of) ?"
    r"(?:script|skript|scriptdatei))|program(?:me)? (?:path|to run|to start|file)|executable(?: path)?|"
    r"(?:add |additional |program |command(?:-line)? )?arguments|argumente(?: hinzufugen| hinzufügen)?|"
    r"(?:ajouter des )?arguments|(?:agregar|añadir|anadir|aggiungi|adicionar) (?:argumentos|argomenti)|"
    r"argumenten toevoegen|"
    r"(?:custom|remote|local|shell|startup|start-?up|launch|pre-?launch|post-?launch|pre-?build|post-?build|"
    r"pre-?build event|post-?build event|before launch|after launch|run|exec|execute|initial|login|on connect|"
    r"connect|disconnect|container|override|entrypoint|docker|task|cron|job|scheduled)? ?"
    r"(?:commands?|command line|command to (?:run|execute)|cmd)|"
    r"(?:execute|run|user-defined|user defined|custom|inline|shell|bash|build|post-build|pre-build|startup|"
    r"powershell|batch|windows batch) (?:shell|script|command)|shell script|run shell script|execute shell|"
    r"execute windows batch command|script to run|script path|script|entrypoint|entry point|"
    r"commande(?: personnalisee| personnalisée| a executer| à exécuter| distante)?|befehl(?:szeile)?|"
    r"(?:benutzerdefinierter|eigener) befehl|auszufuhrender befehl|auszuführender befehl|"
    r"comando(?: personalizado| personalizzato| remoto| da eseguire| a ejecutar| a executar)?|opdracht(?:regel)?|"
    r"polecenie|команда|komut|"
    r"プログラム/スクリプト|プログラム|引数の追加(?: \(オプション\))?|コマンド|程序或脚本|程序或指令碼|添加参数|"
    r"新增引數|命令|"
    r"명령|프로그램/스크립트)(?: \(optional\)| \(facultatif\)| \(optionnel\)| \(optional\)| \(opcional\)|"
    r" \(optionale?\)| \(facoltativo\)| \(opzionale\))?:?$")
# ... and what is no such field though it names a command: the command palette and its search, a chat
_NOT_COMMAND_FIELD = re.compile(r"\b(?:palette|search|find|filter|chat|message|comment|description|notes?|help|"
                                r"documentation|shortcut key|keyboard shortcut|hotkey|key binding|name)\b")
# a window, app or page that runs what is put in such a field: a scheduler, an automation or launcher app, a CI
# server's job, a file transfer client, a remote session client, a container manager, a run configuration
_RUNS_FIELDS = re.compile(
    r"\b(?:task scheduler|taskschd|create (?:basic )?task|new action|edit action|new trigger|scheduled tasks?|"
    r"aufgabenplanung|aufgabe erstellen|neue aktion|planificateur de taches|planificateur de tâches|"
    r"creer une tache|créer une tâche|nouvelle action|programador de tareas|crear tarea|nueva accion|nueva acción|"
    r"utilita di pianificazione|utilità di pianificazione|crea attivita|crea attività|nuova azione|"
    r"agendador de tarefas|criar tarefa|nova acao|nova ação|taakplanner|taak maken|nieuwe actie|"
    r"harmonogram zadan|harmonogram zadań|планировщик заданий|"
    r"cron(?:tab| jobs?| job)?|crontab|cronjob|scheduled (?:job|script|command)s?|launchd|launchcontrol|lingon|"
    r"systemd timer|user scripts|"
    r"keyboard maestro|automator|run shell script|autohotkey|hammerspoon|bettertouchtool|alfred workflow|tasker|"
    r"power automate|home assistant|node-red|n8n|stream deck|hazel|automation|automations|workflow editor|"
    # apps that run a program of the user's choosing after their own step: a screenshot tool's actions, a
    # launcher's or a text expander's command, a macro tool's run step
    r"sharex|greenshot|flameshot|listary|launchy|keypirinha|executor|espanso|phraseexpress|autoit|"
    r"pulover'?s macro creator|macro (?:recorder|creator|express)|jitbit|external (?:tools?|commands?|programs?)|"
    r"jenkins|gitlab|teamcity|bamboo|circleci|travis|buildkite|azure (?:devops|pipelines)|build steps?|"
    r"build configuration|build events?|build phases?|pipeline editor|run script phase|octopus deploy|rundeck|"
    r"ansible (?:awx|tower)|"
    r"winscp|filezilla|cyberduck|forklift|total commander|putty|kitty|superputty|mobaxterm|securecrt|"
    r"termius|remmina|royal ts|mremoteng|remote desktop manager|xshell|bitvise|solar-putty|"
    r"remote ?app|remote command|"
    r"docker desktop|portainer|kitematic|rancher|openlens|kubernetes lens|podman desktop|run a new container|"
    r"container settings|"
    r"run/debug configurations?|run configurations?|launch configurations?|edit configurations?|external tools|"
    r"pre-launch|before launch|startup command|"
    r"タスク スケジューラ|タスクの作成|新しい操作|任务计划程序|创建任务|新建操作|工作排程器)\b|"
    r"タスク スケジューラ|タスクの作成|新しい操作|任务计划程序|创建任务|新建操作|工作排程器|작업 스케줄러|"
    # apps known by a common word: only as the app's own name
    r"^(?:shortcuts|transmit|lens)(?:\.app|\.exe)?$")
# a CI server's job, a panel's scheduler or a container manager, by the page's address
_RUNS_FIELDS_URL = re.compile(
    r"^[a-z][a-z0-9+.-]*://[^?#]*(?:/job/[^/?#]+/configure|/-/ci/editor|/-/pipeline_schedules|/admin/edit(?:run|"
    r"build)\w*|/cron(?:tab|jobs?)?\b|/scheduler\b|/scheduled-?tasks?\b|/portainer\b|/#!/\d+/docker/containers/new|"
    r"/config/automation|/config/script|/pipelines?/[^?#]*/edit|/_build|/build-?steps?)", re.IGNORECASE)


def _command_field(url: str, window: str, app: str, target: tuple[str, ...]) -> bool:
    """The target is a field labelled for a command line to run (`_COMMAND_LABEL`: "Program/script", "Add
    arguments", "Custom command", "Execute shell") in a window, an app or a page that runs it
    (`_RUNS_FIELDS`): a scheduler, an automation app, a CI job, a file transfer or remote session client, a
    container manager or a run configuration. The command palette, a search box and a chat are none."""
    if not target or not any(_COMMAND_LABEL.match(part.strip(" *")) for part in target):
        return False
    if any(_NOT_COMMAND_FIELD.search(part) for part in target):
        return False
    return bool((window and _RUNS_FIELDS.search(window)) or (app and _RUNS_FIELDS.search(app)) or
                (url and _RUNS_FIELDS_URL.match(url[:2048])))


# an arguments field (a scheduled task's "Add arguments", a run configuration's "Program arguments"): the program is
# in another field, so the arguments are judged as the program they are written for would run them
_ARGUMENTS_LABEL = re.compile(r"\barguments?\b|\bargumente?\b|\bargumentos\b|\bargomenti\b|\bargumenten\b|"
                              r"引数|参数|引數")
_POWERSHELL_ARGS = re.compile(r"^[-/](?:e|ec|enc\w*|encodedcommand|w|win\w*|ep|ex\w*|exec\w*|nop\w*|noprofile|"
                              r"noni\w*|command|c|file|f|sta|mta|nologo)(?:\s|:|$)", re.IGNORECASE)
_CMD_ARGS = re.compile(r"^/[ckqsr](?:\s|$)", re.IGNORECASE)


def field_command(ctx: Context, text: str) -> str:
    """The command line `text` typed into a command field makes: as typed, or, in an arguments field, with the
    program such arguments are written for (PowerShell's `-WindowStyle Hidden -EncodedCommand ...`, cmd's
    `/c ...`) in front of them."""
    if not any(_ARGUMENTS_LABEL.search(part) for part in ctx.derived(_target_parts)):
        return text
    stripped = text.lstrip()
    if _POWERSHELL_ARGS.match(stripped):
        return "powershell.exe " + stripped
    if _CMD_ARGS.match(stripped):
        return "cmd.exe " + stripped
    return text


def _other_terminal(app: str, window: str) -> bool:
    """The app or the window is a terminal `shell.terminal_windows` does not name (`_MORE_TERMINALS`). A browser,
    an editor or a document whose title names a terminal ("Warp - the terminal for developers - Firefox",
    "terminal.md - gedit") is that program: only its app's name counts there."""
    if app and _MORE_TERMINALS.search(app):
        return not _BROWSER.search(app) and not _EDITOR_WINDOW.search(app)
    if not window or not _MORE_TERMINALS.search(window):
        return False
    return not (app or _BROWSER.search(window) or _EDITOR_WINDOW.search(window) or _DOCUMENT_TITLE.search(window))


# a window titled with a document or a page: "notes.txt - gedit", "Terminal settings - Google Chrome"
_DOCUMENT_TITLE = re.compile(r"\.(?:txt|md|docx?|odt|pdf|html?|py|js|ts|json|ya?ml|toml|ini|cfg|conf)\b| [-—–] "
                             r"(?:mozilla firefox|google chrome|chromium|microsoft edge|safari|opera|brave|word|"
                             r"libreoffice \w+|writer|pages|notepad|wordpad)$")


def as_command(text: str) -> str | None:
    """The command typed text runs: line breaks are Enter presses (each line a command); None when blank."""
    command = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    return command or None


# terminal emulators: typed into a Run dialog, each opens a window that runs the command it is given
_EMULATORS = frozenset({
    "gnome-terminal", "mate-terminal", "tilix", "xfce4-terminal", "terminator", "lxterminal", "qterminal", "konsole",
    "xterm", "uxterm", "urxvt", "rxvt", "st", "alacritty", "foot", "kitty", "terminology", "x-terminal-emulator",
    "wezterm", "guake", "tilda", "cool-retro-term", "sakura", "termite", "wt", "wt.exe", "conhost", "conhost.exe",
    "open", "ptyxis", "kgx", "ghostty"})
_RUN_FLAGS = frozenset({"--", "-e", "-x", "--execute", "--command", "-c", "--exec", "start"})
_WT_VALUED = frozenset({"-p", "--profile", "-d", "--startingdirectory", "--title", "--tabcolor", "-w", "--window"})
# the emulators that take the command as their first argument that is no option
_BARE_ARGV = frozenset({"kitty", "wt", "wt.exe", "conhost", "conhost.exe", "wezterm", "ghostty"})


def in_terminal(command: str) -> str | None:
    """The command a terminal emulator launched by `command` runs (`gnome-terminal -- bash -c 'X'`, `xterm -e X`,
    `konsole -e X`, `kitty X`, `wt cmd /c X`, `open -a Terminal X`), or None when `command` launches none (or
    none with a command)."""
    if len(command) > 8192:
        return None
    head = command.split(None, 1)
    if len(head) < 2:
        return None
    name = head[0].strip("\"'").replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name not in _EMULATORS:
        return None
    if name in ("wt", "wt.exe", "conhost", "conhost.exe"):
        # a Windows command line: quotes and backslashes as written, after the emulator's options
        try:
            words = shlex.split(head[1], posix=False)
        except ValueError:
            return None
        i = 0
        while i < len(words) and words[i].startswith("-"):
            i += 2 if words[i].lower() in _WT_VALUED and i + 1 < len(words) else 1
        return " ".join(words[i:]) or None
    try:
        words = shlex.split(command, posix=True)
    except ValueError:
        return None
    rest = words[1:]
    if name == "open":  # macOS: `open -a Terminal script.sh`; any other `open` is a document
        if len(rest) > 2 and rest[0] == "-a" and rest[1].lower() in ("terminal", "iterm", "iterm2"):
            return shlex.join(rest[2:])
        return None
    for i, w in enumerate(rest):
        flag, _, value = w.partition("=")
        if flag in _RUN_FLAGS:
            inner = [value, *rest[i + 1:]] if value else rest[i + 1:]
            break
        if name in _BARE_ARGV and not w.startswith("-"):
            inner = rest[i:]
            break
    else:
        return None
    if not inner:
        return None
    return inner[0] if len(inner) == 1 else shlex.join(inner)


_BARE_HOST = re.compile(r"^(?:[\w-]+\.)+[a-z\u00a1-\uffff-]{2,}(?::\d+)?(?:[/?#]\S*)?$|"
                        r"^localhost(?::\d+)?(?:[/?#]\S*)?$|^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:[/?#]\S*)?$|^[^\s/@]+@[^\s/]+\.[a-z]{2,}/\S*$",
                        re.IGNORECASE)


_RX_AS_URL = re.compile(r"^[\w.-]+:\d")


def as_url(text: str) -> str | None:
    """The URL typed text opens from an address bar: a scheme, or one word that reads as a host (with an
    optional path); None for search terms ("cheap flights to rome") which go to the search engine."""
    url = text.strip()
    if not url or len(url) > 4096:
        return None if not url else url[:4096]
    first = url.split(None, 1)[0]
    if _SCHEME.match(url) and not _RX_AS_URL.match(url):
        return url if " " not in url or url.lower().startswith(("javascript:", "data:", "vbscript:")) else first
    if " " not in url and _BARE_HOST.match(url):
        return url
    return None


# a page of the system's settings, by the URI or the applet a Run dialog or launcher opens: Windows' Settings
# (`ms-settings:windowsupdate`), a Control Panel applet (`control printers`, `ncpa.cpl`), macOS's System Settings
# (`x-apple.systempreferences:com.apple.preference.security`), GNOME's and KDE's settings panels
_SETTINGS_PAGE = re.compile(
    r"^(?:start\s+|open\s+)?[\"']?(?:ms-settings:[\w\-./?=&]*|x-apple\.systempreferences:[\w\-./?=&]*|"
    r"control(?:\.exe)?(?:\s+(?:/name\s+microsoft\.\w+|[\w/]+(?:\.cpl)?(?:,@?\d*)?))?|"
    r"(?:control(?:\.exe)?\s+)?[a-z0-9]+\.cpl(?:,@?\d*(?:,\d+)?)?|"
    r"gnome-control-center(?:\s+[\w-]+)?|systemsettings5?(?:\s+[\w-]+)?|kcmshell[56]?\s+[\w-]+|"
    r"xfce4-settings-manager|unity-control-center(?:\s+[\w-]+)?|"
    # Windows' own consoles and viewers by their bare name (resolved in System32; a .msc given by a path is a file
    # anyone may have written, and is judged as one), and a known folder (`shell:startup`) opened in Explorer
    r"[a-z]{3,12}\.msc|calc|taskmgr|resmon|perfmon|charmap|snippingtool|osk|magnify|dxdiag|msinfo32|winver|"
    r"sndvol|mstsc|explorer|shell:[a-z][\w ]{1,40})[\"']?\s*$",
    re.IGNORECASE)


def settings_page(command: str) -> bool:
    """`command` (typed into a Run dialog or a launcher) only opens a page of the system's settings, one of its
    own consoles or viewers (`services.msc`, `taskmgr`, `calc`) or a known folder: it runs nothing else, and
    what is then changed there is a click the gate judges on its own."""
    return len(command) <= 200 and _SETTINGS_PAGE.match(command.strip()) is not None


# -- an ordinary mail-authentication record typed into a DNS record's value ------------------------------------

# the SPF include hosts of the mail services that publish one (their own setup pages name them): a domain's
# SPF record that includes only these, and its own servers, authorises its mail provider, not a stranger
_MAIL_SPF_DOMAINS = frozenset({
    "google.com", "googlemail.com", "outlook.com", "microsoft.com", "office365.com", "sendgrid.net",
    "mailgun.org", "amazonses.com", "cloudflare.net", "mandrillapp.com", "mcsv.net", "mailchimp.com", "zoho.com",
    "zoho.eu", "zohomail.com", "salesforce.com", "exacttarget.com", "zendesk.com", "messagingengine.com",
    "protonmail.ch", "proton.me", "mailjet.com", "sparkpostmail.com", "mtasv.net", "postmarkapp.com",
    "sendinblue.com", "brevo.com", "hubspotemail.net", "helpscoutemail.com", "yandex.net", "icloud.com",
    "secureserver.net", "emailsrvr.com", "elasticemail.com", "improvmx.com", "mxroute.com", "fastmail.com",
    "mailerlite.com", "mktomail.com", "freshdesk.com", "intuit.com", "ovh.net", "ionos.com", "gandi.net",
    "migadu.com", "titan.email", "mimecast.com", "pphosted.com", "messagelabs.com", "sophos.com",
})
_SPF_TERM = re.compile(r"^(?:[~?-]?(?:include|redirect)[:=](?P<host>[\w.-]+)|[~?-]?(?:ip4|ip6)[:=][\w.:/]+|"
                       r"[~?-]?(?:a|mx)(?:[:/][\w./-]+)?|[~-]all|exp=[\w.%{}-]+)$", re.IGNORECASE)
_DKIM = re.compile(r"^v=DKIM1\s*;(?:\s*[a-z]{1,2}=[\w+/=:;., -]*)*\bp=[A-Za-z0-9+/=\s]{16,}\s*;?\s*$", re.IGNORECASE)
_DMARC = re.compile(r"^v=DMARC1\s*;\s*p=(?:none|quarantine|reject)\s*(?:;\s*[a-z]{1,5}=[^;]{0,200})*;?\s*$",
                    re.IGNORECASE)


def mail_auth_record(text: str) -> str | None:
    """The kind ("SPF", "DKIM", "DMARC") when the text is an ordinary mail-authentication record a DNS panel
    takes: an SPF record that authorises only the domain's own servers and known mail services and ends in
    `~all` or `-all`; a DKIM public key; a DMARC policy. None otherwise: an SPF that includes an unknown host or
    passes everything (`+all`, `?all`), and any other record (a site-verification token proves a domain to
    whoever holds it)."""
    value = text.strip().strip('"').strip()
    if len(value) > 2048:
        return None
    low = value.lower()
    if low.startswith("v=spf1 "):
        terms = low.split()[1:]
        if not terms or terms[-1] not in ("~all", "-all"):
            return None
        for term in terms:
            m = _SPF_TERM.match(term)
            if m is None:
                return None
            host = m.group("host")
            if host is not None and ".".join(host.rstrip(".").split(".")[-2:]) not in _MAIL_SPF_DOMAINS:
                return None
        return "SPF"
    if low.startswith("v=dkim1") and _DKIM.match(value):
        return "DKIM"
    if low.startswith("v=dmarc1") and _DMARC.match(value):
        return "DMARC"
    return None
