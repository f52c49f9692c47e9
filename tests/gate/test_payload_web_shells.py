"""A server page written with code that runs what a web request sends (gate/content.py `web_shell`): request input
handed to a command or code runner, straight or through a variable, or called as a function, in PHP, JSP, ASP and
ASP.NET, ColdFusion, and in Python or Node handlers under a web root. Writing one blocks
(`block.files.attack-script`); pages that show, store or query the input, or run a fixed or cleaned command, pass
`web_shell` and keep their decision."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.content import web_shell

GATE = SafetyGate()


def write(path: str, content: str) -> tuple[str, tuple[str, ...]]:
    got = GATE.assess(action_from_dict({"type": "file_write", "path": path, "content": content}))
    return got.decision.value, got.rules


SHELLS = [
    "<?php if (!empty($_POST['q'])) { $q = $_POST['q']; echo '<pre>' . shell_exec($q) . '</pre>'; } ?>",
    "<?php echo system($_GET['run']); ?>",
    "<?php @assert($_COOKIE['z']); ?>",
    "<?php $_REQUEST['fn']($_REQUEST['arg']); ?>",
    "<?php print `{$_POST['x']}`; ?>",
    "<?php popen(base64_decode($_SERVER['HTTP_X_DATA']), 'r'); ?>",
    '<% String line = request.getParameter("line"); new ProcessBuilder("sh", "-c", line).start(); %>',
    '<% Process p = Runtime.getRuntime().exec(request.getParameter("q")); %>',
    '<%@ Page Language="C#" %><% var i = new System.Diagnostics.ProcessStartInfo("cmd.exe", "/c " + '
    'Request.QueryString["q"]); System.Diagnostics.Process.Start(i); %>',
    '<% Set sh = CreateObject("WScript.Shell") : sh.Run(Request.Form("q")) %>',
    '<cfexecute name="cmd.exe" arguments="/c #form.q#" timeout="9"></cfexecute>',
]


@pytest.mark.parametrize("content", SHELLS)
def test_request_input_run_is_a_web_shell(content: str) -> None:
    assert web_shell(content) is not None


@pytest.mark.parametrize(("path", "content"), [
    ("/var/www/html/tools/ping.php", SHELLS[0]),
    ("/srv/http/x.php", SHELLS[3]),
    ("/usr/share/tomcat/webapps/ROOT/status.jsp", SHELLS[6]),
    ("C:/inetpub/wwwroot/health.aspx", SHELLS[8]),
    ("/home/dev/site/public/diag.php", SHELLS[1]),
    ("/var/www/app/cgi-bin/run.py", "import os, cgi\nform = cgi.FieldStorage()\nos.system(form.getvalue('c'))\n"),
])
def test_writing_a_web_shell_blocks(path: str, content: str) -> None:
    decision, rules = write(path, content)
    assert decision == "block" and "block.files.attack-script" in rules, rules


BENIGN = [
    "<?php echo htmlspecialchars($_GET['name'] ?? 'guest'); ?>",
    "<?php $page = $_GET['p'] ?? 'home'; include __DIR__ . '/pages/' . basename($page) . '.php'; ?>",
    "<?php $id = $_POST['id']; $s = $pdo->prepare('DELETE FROM cart WHERE id = ?'); $s->execute([$id]); ?>",
    "<?php exec('gzip -k ' . escapeshellarg($_FILES['f']['tmp_name'])); ?>",
    "<?php $tags = array_map('trim', explode(',', $_POST['tags'])); ?>",
    "<?php exec('git rev-parse HEAD', $out); echo $_GET['v'] ?? $out[0]; ?>",
    "app.get('/n', (req, res) => { const ok = /^[a-z]+$/.exec(req.query.n); res.json({ ok: !!ok }); });",
    "const greeting = `Hello ${req.query.name}`;",
]


@pytest.mark.parametrize("content", BENIGN)
def test_pages_that_only_use_the_input_are_no_web_shell(content: str) -> None:
    assert web_shell(content) is None


def test_a_template_page_in_the_project_passes() -> None:
    decision, rules = write("/root/deskgate-work/site/index.php", BENIGN[1])
    assert decision == "allow", rules
