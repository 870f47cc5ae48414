"""The API reference page and its files over HTTP (the browser tests are in tests/browser)."""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Mapping
from html.parser import HTMLParser
from importlib.metadata import version
from urllib.parse import urljoin, urlsplit

import pytest

from eventcal.http import docs_ui
from eventcal.http.docs_ui import page_csp
from tests.conftest import NS, Api

UI = f"{NS}/doc/ui"
SWAGGER_UI = f"swagger-ui-{version('swagger-ui-bundle-v2')}"
NO_ROUTE_EN = {
    "code": "rest_no_route",
    "message": "No route was found matching the URL and request method.",
    "data": {"status": 404},
}


class _Page(HTMLParser):
    """The references of a page (``src``/``href``), its scripts and any inline style."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.references: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.inline: list[str] = []
        self._in_script = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.references += [v for k, v in attrs if k in ("src", "href") and v]
        if tag == "script":
            self.scripts.append(attributes)
            self._in_script = True
        if tag == "style" or "style" in attributes or any(k.startswith("on") for k in attributes):
            self.inline.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(f"script text {data!r}")


def _directives(policy: str) -> dict[str, str]:
    pairs = (part.strip().partition(" ") for part in policy.split(";") if part.strip())
    return {name: value.strip() for name, _, value in pairs}


def _assert_security_headers(headers: Mapping[str, str]) -> None:
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert _directives(headers["content-security-policy"])["frame-ancestors"] == "'none'"


def test_page_is_html_under_a_strict_policy(api: Api) -> None:
    response = api.get(UI)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["cache-control"] == "no-cache"
    _assert_security_headers(response.headers)
    assert _directives(response.headers["content-security-policy"]) == {
        "default-src": "'none'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "connect-src": "'self' http://127.0.0.1",
        "base-uri": "'none'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }
    page = _Page(response.text)
    assert page.inline == []
    assert [script["src"] for script in page.scripts] == [
        f"ui/assets/{SWAGGER_UI}/swagger-ui-bundle.js",
        f"ui/assets/{_own_folder(response.text)}/doc-ui.js",
    ]
    assert '<html lang="en">' in response.text
    assert 'data-spec-url="../doc"' in response.text


def _own_folder(text: str) -> str:
    found = re.search(r"assets/(eventcal-[0-9a-f]{12})/", text)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("page_path", "document"),
    [
        (UI, f"{NS}/doc"),
        (f"{UI}/", f"{NS}/doc"),
        (f"/de{UI}", f"/de{NS}/doc"),
        (f"/ES{UI.upper()}/", f"/ES{NS.upper()}/doc"),
    ],
    ids=["plain", "trailing-slash", "language", "upper-case"],
)
def test_every_reference_of_the_page_resolves(api: Api, page_path: str, document: str) -> None:
    """The page's URLs are relative: they resolve from any form of its path."""
    response = api.get(page_path)
    assert response.status_code == 200
    base = f"http://127.0.0.1{page_path}"
    references = _Page(response.text).references
    assert len(references) == 6
    for reference in references:
        asset = api.get(urlsplit(urljoin(base, reference)).path)
        assert asset.status_code == 200, reference
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        _assert_security_headers(asset.headers)
    spec = re.search(r'data-spec-url="([^"]+)"', response.text)
    assert spec is not None
    assert urlsplit(urljoin(base, spec.group(1))).path == document
    served = api.get(document).json()
    assert served["openapi"] == "3.0.3"
    assert served["servers"][0]["url"].lower() == f"http://127.0.0.1{document[:-3]}".lower()


def test_assets_are_typed_compressed_and_named_by_version(api: Api) -> None:
    own = _own_folder(api.get(UI).text)
    expected = {
        f"{SWAGGER_UI}/swagger-ui-bundle.js": "text/javascript; charset=utf-8",
        f"{SWAGGER_UI}/swagger-ui.css": "text/css; charset=utf-8",
        f"{SWAGGER_UI}/favicon-32x32.png": "image/png",
        f"{own}/doc-ui.js": "text/javascript; charset=utf-8",
        f"{own}/doc-ui.css": "text/css; charset=utf-8",
    }
    own_bodies = []
    for name, content_type in expected.items():
        plain = api.get(f"{UI}/assets/{name}", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200
        assert plain.headers["content-type"] == content_type
        assert "content-encoding" not in plain.headers
        assert int(plain.headers["content-length"]) == len(plain.content)
        if name.startswith(own):
            own_bodies.append(plain.content)
        if content_type.startswith("text/"):
            assert plain.headers["vary"] == "Accept-Encoding"
            raw = api.client.get(
                f"{UI}/assets/{name}", headers={"Accept-Encoding": "br, gzip;q=0.5"}
            )
            assert raw.headers["content-encoding"] == "gzip"
            assert raw.content == plain.content  # decoded by the client
            refused = api.get(f"{UI}/assets/{name}", headers={"Accept-Encoding": "gzip;q=0"})
            assert "content-encoding" not in refused.headers
    bundle = api.get(f"{UI}/assets/{SWAGGER_UI}/swagger-ui-bundle.js")
    assert b"SwaggerUIBundle" in bundle.content
    # Our folder is named by our files' content (doc-ui.css, doc-ui.js in name order).
    digest = hashlib.sha256(b"".join(reversed(own_bodies))).hexdigest()[:12]
    assert own == f"eventcal-{digest}"


def test_gzip_body_is_gzip(api: Api) -> None:
    """The compressed bytes on the wire are the file gzipped (read without the client's
    decoding)."""
    url = f"{UI}/assets/{SWAGGER_UI}/swagger-ui.css"
    with api.client.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as response:
        wire = b"".join(response.iter_raw())
    assert response.headers["content-length"] == str(len(wire))
    assert gzip.decompress(wire) == api.get(url, headers={"Accept-Encoding": "identity"}).content


@pytest.mark.parametrize(
    "path",
    [
        f"{UI}/nothing",
        f"{UI}//",
        f"{UI}/assets",
        f"{UI}/assets/{SWAGGER_UI}",
        f"{UI}/assets/{SWAGGER_UI}/index.html",  # in the package, but not ours to serve
        f"{UI}/assets/{SWAGGER_UI}/swagger-ui-bundle.js.map",
        f"{UI}/assets/swagger-ui-0.0.1/swagger-ui.css",  # another version
        f"{UI}/assets/eventcal-000000000000/doc-ui.js",
        f"{UI}/assets/{SWAGGER_UI}/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
        f"{UI}/assets/{SWAGGER_UI}/swagger-ui.css/x",
    ],
)
def test_unknown_paths_are_the_namespace_404(api: Api, path: str) -> None:
    response = api.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json; charset=UTF-8"
    assert response.json() == NO_ROUTE_EN
    _assert_security_headers(response.headers)


def test_404_speaks_the_language_of_the_segment_or_the_header(api: Api) -> None:
    german = api.get(f"/de{UI}/assets/x")
    assert german.json()["message"] == (
        "Es wurde keine Route gefunden, die zur URL und zur Anfragemethode passt."
    )
    assert german.headers["content-language"] == "de"
    spanish = api.get(f"{UI}/x", headers={"Accept-Language": "es-MX, en;q=0.5"})
    assert spanish.headers["content-language"] == "es"
    assert spanish.json()["code"] == "rest_no_route"
    assert spanish.json()["message"] != NO_ROUTE_EN["message"]


def test_a_failure_is_the_namespace_500(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    def unreadable(folder_name: str, name: str) -> docs_ui.Asset:
        raise OSError(f"cannot read {name}")

    monkeypatch.setattr(docs_ui, "_load", unreadable)
    response = api.get(f"{UI}/assets/{SWAGGER_UI}/swagger-ui.css")
    assert response.status_code == 500
    assert response.json() == {
        "code": "internal_server_error",
        "message": "The server could not complete the request. The error was logged.",
        "data": {"status": 500},
    }
    _assert_security_headers(response.headers)


def test_head_has_the_headers_of_get_and_no_body(api: Api) -> None:
    for path in (UI, f"{UI}/assets/{SWAGGER_UI}/swagger-ui.css", f"{UI}/missing"):
        got = api.get(path, headers={"Accept-Encoding": "identity"})
        head = api.request("HEAD", path, headers={"Accept-Encoding": "identity"})
        assert head.status_code == got.status_code
        assert head.content == b""
        assert head.headers["content-length"] == str(len(got.content))
        assert head.headers["content-type"] == got.headers["content-type"]


def test_other_methods_are_the_namespace_404(api: Api) -> None:
    for method in ("POST", "PUT", "DELETE", "OPTIONS"):
        response = api.request(method, UI)
        assert response.status_code == 404, method
        assert response.json() == NO_ROUTE_EN


def test_neighbours_stay_with_the_router(api: Api) -> None:
    """The document and the index are unchanged, and ``doc/uix`` is no page."""
    assert api.get(f"{NS}/doc").headers["content-type"] == "application/json; charset=UTF-8"
    routes = api.get(NS).json()["routes"]
    assert not [route for route in routes if "/ui" in route]
    other = api.get(f"{NS}/doc/uix")
    assert other.status_code == 404
    assert other.json() == NO_ROUTE_EN
    assert "text/html" not in other.headers["content-type"]


def test_policy_lets_try_it_out_reach_the_public_url() -> None:
    assert "connect-src 'self';" in page_csp(None)
    assert "connect-src 'self' https://events.example.org;" in page_csp(
        "https://events.example.org/calendar"
    )
