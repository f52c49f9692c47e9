"""Opening a URL, judged by where it reaches: a sign-in-less service's open port or an admin console on the
person's own machine, a device on the local network by its name, the system's own files through `file:`;
and the look-alikes that reach nothing of the kind (a dev server, a local report, a meeting's join link with
its own passcode, a vendor's installer whose platform name ends in "user"). Our own URLs."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


LOCAL_SERVICES = [
    "http://localhost:2375/containers/json", "http://[::1]:2375/images/json", "http://127.0.0.1:2379/v2/keys/",
    "http://localhost:10250/pods", "http://127.0.0.1:8500/v1/kv/?recurse", "http://localhost:15672/#/users",
    "http://127.0.0.1:5984/_all_dbs", "http://localhost:9222/json", "http://127.0.0.1:6379/",
    "http://127.0.0.1:9200/_cat/indices", "http://localhost:8080/manager/html", "http://127.0.0.1:8080/actuator/env",
    "http://localhost:8081/actuator/heapdump", "http://127.0.0.1:6060/debug/pprof/", "http://localhost/phpmyadmin/",
    "http://localhost:8080/jmx-console/", "http://localhost:8080/script", "http://localhost:8001/api/v1/namespaces/default/secrets",
]

DEV_SERVERS = [
    "http://localhost:3000/dashboard", "http://localhost:8080/", "http://localhost:8080/api/users/1",
    "http://127.0.0.1:5000/", "http://localhost:4200/admin", "http://localhost:8000/admin/", "http://localhost:5173/login",
    "http://localhost:8080/swagger-ui/index.html", "http://127.0.0.1:8888/tree", "http://localhost:8080/scripts/app.js",
    "https://docs.docker.com/engine/api/", "https://www.google.com/search?q=docker+2375+security",
]


@pytest.mark.parametrize("url", LOCAL_SERVICES)
def test_a_local_service_console_or_open_port_asks(url):
    a = nav(url)
    assert a.decision in (Decision.CONFIRM, Decision.BLOCK), (url, a.rules)


@pytest.mark.parametrize("url", DEV_SERVERS)
def test_dev_servers_and_docs_pass(url):
    a = nav(url)
    assert a.decision is Decision.ALLOW, (url, a.rules)


@pytest.mark.parametrize("host", ["router.local", "gateway.lan", "fritz.box", "routerlogin.net", "my-router.home.arpa"])
def test_a_local_device_by_name_passes_and_a_link_that_writes_its_settings_asks(host):
    # its own pages only show, as at its private address; a link whose query saves a setting asks
    assert nav(f"http://{host}/").decision is Decision.ALLOW
    assert nav(f"http://{host}/apply.cgi?action=save&wl_ssid=guest").decision is Decision.CONFIRM


@pytest.mark.parametrize("url", ["https://www.local.com/", "https://lan.example.org/", "https://fritz.com/",
                                 "http://gitlab.local:8023/", "http://nas.lan/"])
def test_hosts_that_only_contain_those_words_pass(url):
    assert nav(url).decision is Decision.ALLOW


@pytest.mark.parametrize("url", ["file:///etc/passwd", "file:///proc/self/environ", "file:///var/log/auth.log",
                                 "file:///root/", "file:///C:/Windows/System32/config/SAM"])
def test_system_files_through_file_urls_ask(url):
    assert nav(url).decision in (Decision.CONFIRM, Decision.BLOCK)


@pytest.mark.parametrize("url", ["file:///Users/bob/Downloads/report.pdf", "file:///tmp/coverage/index.html",
                                 "file:///home/alice/projects/site/index.html",
                                 "file:///usr/share/doc/python3/html/index.html"])
def test_local_reports_and_docs_pass(url):
    assert nav(url).decision is Decision.ALLOW


def test_a_meeting_link_carries_its_own_passcode():
    assert nav("https://zoom.us/j/1234567890?pwd=abcDEF123").decision is Decision.ALLOW
    assert nav("https://us02web.zoom.us/j/85551234567?pwd=Wk9abcDEFghi").decision is Decision.ALLOW
    # the same key to another host, or a look-alike of the meeting host, still asks
    assert nav("https://zoom.us.example-join.io/j/1?pwd=x1234567").decision is not Decision.ALLOW
    assert nav("https://meet-join.example.net/j/1?pwd=hunter22").decision is not Decision.ALLOW


def test_a_platform_name_is_not_a_list_of_people():
    assert nav("https://code.visualstudio.com/sha/download?build=stable&os=win32-x64-user").decision \
        is Decision.ALLOW
    assert nav("https://crm.example.com/contacts/export?format=csv").decision is Decision.CONFIRM
    assert nav("https://app.example.com/users/download?os=win32-x64-user").decision is Decision.CONFIRM


def test_a_form_answered_by_its_address_asks():
    url = "https://docs.google.com/forms/d/e/1FAIpQLSx/formResponse?entry.11=hunter2&entry.22=ann%40corp.example"
    assert nav(url).decision is Decision.CONFIRM
    assert nav("https://docs.google.com/forms/d/e/1FAIpQLSx/viewform?usp=sf_link").decision is Decision.ALLOW
    assert nav("https://docs.google.com/forms/d/e/1FAIpQLSx/formResponse").decision is Decision.ALLOW
