"""Rules: a click that publishes commits: a push from an editor's or a git client's own button, or a commit, a
pull request or a merge made on a code host's web pages.

    confirm.gui.git-push   "Sync Changes", "Push", "Push origin", "Commit and Push", "Publish Branch", "Force Push"
                           in a code editor (VS Code, JetBrains IDEs, Xcode, Zed, Cursor) or a git client (GitHub
                           Desktop, GitKraken, Sourcetree, Fork, Tower, Sublime Merge, git-cola, gitk): the same
                           publish `git push` asks about in a shell
    confirm.gui.code-host-publish  "Commit changes", "Create pull request", "Merge pull request", "Confirm merge",
                           "Squash and merge", "Publish release" on a code host's pages (GitHub, GitLab,
                           Bitbucket, Gitea, Forgejo, Azure DevOps): the change lands in the repository or is shown
                           to its people

Commit, Stage, Pull, Fetch and Discard's own confirmation are other rules' business or pass. Pure.
"""

from __future__ import annotations

import re

from gate.fields import page_host
from gate.model import Risk
from gate.normalise import fold
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.navigate import _code_host

__all__ = ["RULES"]

# where commits are pushed by a button: the app, or the window's title
_GIT_PLACE = re.compile(
    r"\b(?:visual studio code|vs ?code|vscodium|code - oss|cursor|windsurf|zed|intellij(?: idea)?|pycharm|webstorm|"
    r"goland|clion|rider|phpstorm|rubymine|android studio|xcode|eclipse|netbeans|sublime merge|github desktop|"
    r"gitkraken|sourcetree|git-cola|git cola|gitk|git gui|gitahead|smartgit|gitextensions|"
    r"git extensions|tortoisegit|lazygit|source control|version control)\b|^(?:code|fork|tower)(?:\.app| |$)")
# the button's words: a push, in English and the editors' other languages
_PUSH = re.compile(
    r"^\W*(?:sync(?: changes)?|sync now|push(?: origin| to origin| to remote| changes| commits?| tags?)?|"
    r"force push|push --force|force-push|commit (?:and|&) push|commit and sync|commit & sync|publish branch|"
    r"publish to github|push\.{3}|pushen|synchronisieren|änderungen synchronisieren|"
    r"synchroniser les modifications|sincronizar cambios|sincronizar alterações|sincronizza modifiche|"
    r"変更の同期|プッシュ|同步更改|推送)"
    r"(?:[\s(]*\d+[)↑↓\s\d]*)?\W*$")  # the count of commits VS Code shows beside it


@rule("confirm.gui.git-push", "A push to a remote from an editor's or a git client's button", risk=Risk.HIGH,
      types=("click",), confidence=0.8)
def git_push_click(ctx: Context) -> CheckResult:
    """A click on "Sync Changes", "Push", "Push origin", "Commit and Push", "Publish Branch" or "Force Push" in a
    code editor (VS Code, a JetBrains IDE, Xcode, Zed, Cursor) or a git client (GitHub Desktop, GitKraken,
    Sourcetree, Fork, Tower, Sublime Merge): it publishes the commits to the remote, as `git push` does in a
    shell, where it asks too. Commit, Stage, Pull and Fetch pass."""
    target = ctx.action.target
    label = (target.label or target.name or "") if target else ""
    if not label or len(label) > 60 or not _PUSH.match(fold(label).lower()):
        return None
    obs = ctx.observation
    place = " ".join(fold(p).lower() for p in (obs.app, obs.window_title) if p)
    if not _GIT_PLACE.search(place):
        return None
    return f"clicking {label.strip()[:40]!r} in {(obs.app or obs.window_title)[:40]!r} pushes commits to the remote"


# a code host, by the window's title (its page's host: navigate's `_code_host`)
_CODE_HOST_TITLE = re.compile(r"\b(?:github|gitlab|bitbucket|gitea|forgejo|codeberg|azure devops|pull request|"
                              r"merge request)\b", re.IGNORECASE)
_PUBLISH = re.compile(
    r"^\W*(?:commit changes|commit new file|commit directly|propose changes|create (?:a )?(?:draft )?pull request|"
    r"create (?:a )?merge request|open (?:a )?pull request|merge pull request|merge request|confirm merge|"
    r"squash and merge|rebase and merge|confirm squash and merge|confirm rebase and merge|merge when pipeline succeeds|"
    r"set to auto-merge|enable auto-merge|publish release|create release|update release|delete branch|"
    r"push to branch)\W*$")


@rule("confirm.gui.code-host-publish", "A commit, a pull request or a merge made on a code host's pages",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def code_host_publish(ctx: Context) -> CheckResult:
    """"Commit changes", "Create pull request", "Merge pull request", "Confirm merge", "Squash and merge",
    "Publish release" on a code host's pages (GitHub, GitLab, Bitbucket, Gitea, Azure DevOps): the change lands in
    the repository, or is shown to everyone who watches it, as `git push` and `gh pr create` are in a shell where
    they ask too. Opening the editor, a diff or the "New pull request" page passes."""
    target = ctx.action.target
    label = (target.label or target.name or "") if target else ""
    if not label or len(label) > 60 or not _PUBLISH.match(fold(label).lower().rstrip(". ")):
        return None
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url
    if not (_code_host(ctx.derived(page_host).lower()) or _CODE_HOST_TITLE.search(obs.window_title)):
        return None
    return f"clicking {label.strip()[:40]!r} on a code host publishes the change: {(url or obs.window_title)[:60]!r}"


RULES: tuple[Rule, ...] = (git_push_click, code_host_publish)
