"""The shape of a link read without its page (gate/hostile_hosts.py `url_shape`, `[url-shape]` of
resources/destinations.toml; gate/rules/navigate.py `confirm.nav.url-shape`, `block.nav.url-shape`): a page file on
a host anyone publishes on, a random token as a path, click-tracking and affiliate redirects, a script fed a random
key, a mailbox's address in base64, a company's single-sign-on name. Our own hosts and tokens, in the shapes spam
traps and phishing feeds list; each side with many benign neighbours (long but ordinary URLs)."""

from __future__ import annotations

import base64

import pytest

from gate import SafetyGate, action_from_dict
from gate.hostile_hosts import random_token, url_shape
from gate.model import Decision, Observation

GATE = SafetyGate()
SHAPE_RULES = ("confirm.nav.url-shape", "block.nav.url-shape")


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def click_link(url: str):
    return GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": url}}),
                       Observation(window_title="Inbox - Mail"))


MAILBOX_B64 = base64.b64encode(b"r.meier@contoso-mail.example").decode()

# -- ask: two points of shape, or one beside a sign of the host -------------------------------------------------------


@pytest.mark.parametrize("url", [
    # a random token as the whole path of an unknown site
    "https://bestoffersdaily.com/7QmzR2kLp9XwT4vB1nYc8HsJ3dFg",
    "http://qualitysupps.net/Kp3Zr8Lq2Wx7Mn4Bv6Ct1Yh9Jd5Fs0Ga",
    "https://mondial-deals.online/9xTqLp4ZmR2vN8wKc3Hb7YsJ1dFgQe",
    # a random page file at the root of an unknown site
    "https://riverstone-invest.com/qwhzkdjfxv7392048mnbvcxzlkj5620183pq.html",
    # a click-tracking folder before a token, or before a run of ids
    "http://mailer-north.com/track/b58294QzkR30117Lw8pXy2046Hnv",
    "http://brightparcel.net/cl/7120_kx/44/903/118/61/5524013",
    "https://newsletter-offers.xyz/track/Zq81LmN4pQr6StU9vWx1Yz2Ab3Cd",
    # an affiliate network's redirect at the root of a site
    "https://greenvalleyclicks.com/?a=5120&oc=3318&c=77421&m=2&s1=",
    "https://deals4you.top/?a=1234&oc=55&c=9&s1=abc&s2=",
    # a PHP script fed a random key
    "http://harborlights-media.com/xkqpt.php?17=a93bf01c7de2_4f1.9be01aa.3370fe4b0c2a_18ab5c.Rt7ZqW2mXv9PkL4nB8sYd3",
    # a bulk-registered name and a random token as its path
    "https://shipping-status.icu/Hx7Lq2Zm9RtV4kPw8NcB3yJd",
    "https://freegift-now.sa.com/5RbT2qLx8WmZ4kPn7VcH1yJd3Fs",
    # a published script's web page
    "https://script.google.com/macros/s/AKfycbz9QwErTy1234UiOpAsDfGhJkLzXcVbNm5678QwErTyUiOp/exec",
    # a web page file in object storage
    "https://storage.googleapis.com/promo-assets-77/index.html",
    "https://acmecorp1.blob.core.windows.net/$web/landing.htm",
    # a mailbox's address in base64, how a kit is told whose sign-in to copy
    f"https://unrelated-portal.com/doc/index.php#{MAILBOX_B64}",
    # a site named for a fee at its fee page
    "https://pagartaxasenvio.com/taxas/envio2291",
])
def test_link_shape_asks(url):
    a = nav(url)
    assert a.decision in (Decision.CONFIRM, Decision.BLOCK), (url, a.rules)
    assert any(r in a.rules for r in SHAPE_RULES), (url, a.rules)


# -- block: a brand, a sign-in on a storage page, a company's single sign-on ------------------------------------------


@pytest.mark.parametrize("url", [
    "https://storage.googleapis.com/bucket-5512/qqqqqqqqxqqqqqqqqnetflix.html",
    "https://storage.googleapis.com/ops-bucket-19/account-verify.html",
    "https://ipfs.io/ipfs/QmXoYpzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdGA/signin.html",
    "https://trackmail-east.com/track/docusign/Ab3Kq9Lm2Zx7Wp4Rt8Vn1Yc6",
    "https://globex-okta.com/",
    "https://sso-initech.net/login",
    "https://coinbase-sso.com/",
])
def test_link_shape_blocks(url):
    a = nav(url)
    assert a.decision is Decision.BLOCK, (url, a.rules)


def test_a_link_whose_text_is_such_a_url_asks_when_clicked():
    a = click_link("https://bestoffersdaily.com/7QmzR2kLp9XwT4vB1nYc8HsJ3dFg")
    assert a.decision is Decision.CONFIRM, a.rules
    a = click_link("https://storage.googleapis.com/ops-bucket-19/account-verify.html")
    assert a.decision is Decision.BLOCK, a.rules


# -- pass: long but ordinary links ------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [
    # search, documents, files, meetings on the big sites
    "https://www.google.com/search?q=best+hiking+boots+for+winter&sca_esv=a1B2c3D4e5F6&sxsrf=ADLYWIL9x7Qk2mPzT4vR8s"
    "Nw3Hj5Kb6Ye1Fq:1712345678901&ei=Zx8kZqPqLs3Xk5oP9Y2uQA&ved=0ahUKEwjzq8Dm3YKFAxXN6wIHHfWGCwgQ4dUDCBA",
    "https://docs.google.com/document/d/1aBcD3eFgH4iJkL5mNoP6qRsT7uVwX8yZ9AbCdEfGhIj/edit?usp=sharing",
    "https://drive.google.com/file/d/1Qw2Er3Ty4Ui5Op6As7Df8Gh9Jk0LzXcVbNm/view?usp=drive_link",
    "https://mail.google.com/mail/u/0/#inbox/FMfcgzGxSbZcRtQkWnCpLvVmXdDjJkHg",
    "https://www.dropbox.com/scl/fi/a1b2c3d4e5f6g7h8i9j0k/report.pdf?rlkey=AbCdEf123GhIjKl456MnOpQr789&dl=0",
    "https://us02web.zoom.us/j/81234567890?pwd=aBcDeFgHiJkLmNoPqRsTuVwXyZ123456",
    "https://www.figma.com/file/AbC12dEf34GhI56jKl78MnO/Landing-Page?node-id=0%3A1",
    "https://www.notion.so/Team-Roadmap-Q3-8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d",
    # shops' product pages with long ids and tracking keys
    "https://www.amazon.com/Wireless-Headphones/dp/B09XYZ1234/ref=sr_1_3?crid=2K9QW8XZ7L3PO&keywords=headphones"
    "&qid=1712345678&sprefix=headph%2Caps%2C180&sr=8-3",
    "https://www.etsy.com/listing/1234567890/handmade-ceramic-mug?click_key=AbC123dEf456GhI789jKl012&ref=hp_rv-1",
    "https://www.linkedin.com/jobs/view/3812345678/?refId=AbC123dEf456GhI789jKl%3D%3D",
    "https://example-shop.com/products/blue-cotton-shirt?utm_source=newsletter&utm_medium=email"
    "&utm_campaign=SpringSale2024AbC123XyZ789",
    "https://shop.example-store.com/track/1Z999AA10123456784",
    # videos, posts, code
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG",
    "https://open.spotify.com/track/4cOdK2wGLETKBW3PvgPWqT?si=1a2b3c4d5e6f7a8b",
    "https://github.com/psf/requests/commit/8b8e5d2f3a1c4e7b9d0f6a2c5e8b1d4f7a0c3e6b",
    "https://gist.github.com/someuser/0123456789abcdef0123456789abcdef",
    "https://someone.github.io/project/index.html",
    "https://www.reddit.com/r/learnpython/comments/1b2c3d4/how_do_i_read_a_csv_file/",
    # consoles, sign-in flows and tokens on known hosts
    "https://console.aws.amazon.com/ec2/home?region=us-east-1#Instances:instanceState=running",
    "https://portal.azure.com/#@contoso.onmicrosoft.com/resource/subscriptions/12345678-1234-1234-1234-123456789012",
    "https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=00000000-1111-2222-3333-444444444444"
    "&state=AbC123dEf456GhI789jKl012MnO345",
    # hashes, session ids, CDN assets, dated articles, test sites
    "https://forum.example-board.org/viewtopic.php?t=48213&sid=0123456789abcdef0123456789abcdef",
    "https://cdn.example-assets.net/assets/app.3f9a8b7c6d5e4f3a2b1c.js",
    "https://res.cloudinary.com/demo/image/upload/v1571218330/samples/food/dessert.jpg",
    "https://example-news.com/c/2024/05/12/1234/5678",
    "https://www.nytimes.com/2024/05/12/technology/ai-agents.html",
    "http://localhost:7770/catalog/product/view/id/1234",
    "http://ec2-3-131-244-37.us-east-2.compute.amazonaws.com:7780/admin/sales/order/view/order_id/123/key/"
    "4f7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8/",
    "http://127.0.0.1:9999/f/AskReddit/12345/what-is-your-favorite-book",
    "http://gitlab.intranet/team/app/-/commit/3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a",
    # free hosts' ordinary pages, a bucket's data files
    "https://coolproject.netlify.app/docs/getting-started.html",
    "https://my-portfolio.vercel.app/projects/weather.html",
    "https://storage.googleapis.com/my-bucket/dataset/train-00001-of-00010.parquet",
    "https://example.blob.core.windows.net/data/report.csv",
    # a cheap top-level name, a shop's sign-in, an ordinary affiliate tag, a token under a sign-in's own key
    "https://mystore.shop/account/login",
    "https://cheap-flights-2024.xyz/search?from=BER&to=LIS",
    "https://partner.example-affiliate.com/?a=123&c=456",
    "https://deals.example-blog.com/go/best-laptops-2024",
    "https://app.example-saas.com/invite/AbCdEfGh12IjKlMn34OpQrSt56",
    # a shop under a cheap name: its product slugs with ids, its checkout's token, an event's ticket page
    "https://example-store.shop/products/ceramic-mug-AbC12dEf34GhI56jKl78",
    "https://example-store.shop/checkouts/cn/Z2NwLXVzLWVhc3QxOjAxSEFCQ0RFRkdISUpLTE1OT1BRUlNUVg?key=abc",
    "https://tickets.example-events.com/e/AbCdEf12GhIj34KlMn56OpQr78",
    "https://app.example-saas.com/auth/callback?code=AbC12dEf34GhI56jKl78MnO90&state=Zx9Yw8Vu7Ts6Rq5Po4Nm3",
    # a single sign-on word beside a product's or a guide's name
    "https://sso-guide.com/", "https://okta-tools.net/",
    # a fee word inside another word of the site's name
    "https://coffeesrus-roastery.com/fees", "https://atolls-travel.com/tolls/",
])
def test_ordinary_long_links_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), (url, a.rules)


@pytest.mark.parametrize("text", [
    "4ZqmT8xRw2LpK9vN3bYc7HsJ1dFg", "Kp3Zr8Lq2Wx7Mn4Bv6Ct1Yh9Jd5Fs0Ga", "qwhzkdjfxv7392048mnbvcxzlkj5620183pq",
])
def test_random_tokens(text):
    assert random_token(text)


@pytest.mark.parametrize("text", [
    "8b8e5d2f3a1c4e7b9d0f6a2c5e8b1d4f7a0c3e6b",  # a commit
    "0123456789ABCDEF0123456789ABCDEF",  # a hash in upper case
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",  # a JSON web token's header
    "HowToWriteBetterPythonCode2024",  # a title in camel case with a year
    "B09XYZ1234", "dQw4w9WgXcQ",  # a product's and a video's id: too short
    "1Z999AA10123456784",  # a parcel's tracking number
    "train-00001-of-00010",
])
def test_not_random_tokens(text):
    assert not random_token(text)


def test_a_known_site_has_no_shape():
    assert url_shape("https://www.youtube.com/watch?v=dQw4w9WgXcQ") is None
    assert url_shape("http://localhost:3000/AbC12dEf34GhI56jKl78MnO90pQ") is None


# -- an archive named as a document, where mail malware is served from ---------------------------------------------


@pytest.mark.parametrize("url", [
    "https://firebasestorage.googleapis.com/v0/b/promo-31.appspot.com/o/Invoice_2291.zip?alt=media",
    "https://bakery-lindholm.com/wp-content/uploads/2025/02/Scanned-Remittance-7741.rar",
    "https://dl.dropboxusercontent.com/s/q8w7e6/Payment_Advice_0412.zip",
    "https://cdn.discordapp.com/attachments/11223344/55667788/Rechnung_2025_03.7z",
    "https://bestdeals-club.top/get/Factura_44120.zip",
])
def test_document_named_archive_asks(url):
    a = nav(url)
    assert any(r in a.rules for r in SHAPE_RULES), (url, a.rules)


@pytest.mark.parametrize("url", [
    "https://storage.googleapis.com/ml-public-data/datasets/flowers.zip",
    "https://github.com/someuser/tool/archive/refs/heads/main.zip",
    "https://example-vendor.com/downloads/invoice-template.zip",
    "https://example-vendor.com/downloads/report-2024.zip",
    "https://dl.dropboxusercontent.com/s/q8w7e6/holiday-photos.zip",
    "https://files.pythonhosted.org/packages/source/r/requests/requests-2.31.0.tar.gz",
])
def test_ordinary_archives_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), (url, a.rules)


# -- one table of hostile host names for every rule ---------------------------------------------------------------


def test_hosts_named_hostile_read_one_table():
    from gate.dataout import hostile_host as sent_to
    from gate.hostile_hosts import hostile_host as named

    # a word once known only to the data-out rules is now a navigation's too, and the other way round
    assert sent_to("https://rootkit-drop.example.net/up") == "rootkit-drop.example.net"
    assert named("rootkit-drop.example.net") == "rootkit"
    assert sent_to("https://evilcorp.example/x") == "evilcorp.example"
    # a weak word as the site's own name counts where data is sent, not where a page is opened
    assert sent_to("https://payload.example") == "payload.example"
    assert named("payload.example") is None
    # security projects pass both
    assert sent_to("https://exploit-db.com/search") is None
    assert named("exploit-db.com") is None
    assert sent_to("payload.json") is None


# -- a page named as a document, letters hidden in escapes, a sign-in page told whose address to show --------------


@pytest.mark.parametrize("url", [
    "https://northwind-lodge.com/share/Remittance_7741.pdf.html",
    "https://northwind-lodge.com/%73%69%67%6E/%69%6E%64%65%78.php",
    "https://northwind-lodge.com/portal/signin.php?user=o.berg@fabrikam-mail.example",
])
def test_disguised_pages_ask(url):
    a = nav(url)
    assert any(r in a.rules for r in SHAPE_RULES), (url, a.rules)


@pytest.mark.parametrize("url", [
    "https://fr.wikipedia.org/wiki/%C3%89cole_normale_sup%C3%A9rieure",
    "https://northwind-lodge.com/files/annual%20report%202024.html",
    "https://northwind-lodge.com/newsletter/unsubscribe.php?email=o.berg@fabrikam-mail.example",
    "https://northwind-lodge.com/docs/release.v2.html",
])
def test_ordinary_escapes_and_addresses_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), (url, a.rules)
