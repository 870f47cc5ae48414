"""Files served at their URLs: immutable, tagged, ranged, never sniffed (both backends)."""

from __future__ import annotations

from tests.conftest import Api
from tests.domains.media.library import image_bytes, path_of, uploaded


def test_a_file_is_served_with_its_type_and_immutable_caching(api: Api) -> None:
    data = image_bytes(100, 80)
    item = uploaded(api, data, filename="logo.png")
    path = path_of(item["url"])
    assert path.startswith("/uploads/") and path.endswith("/logo.png")
    response = api.get(path)
    assert response.status_code == 200
    headers = response.headers
    assert headers["Content-Type"] == "image/png"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Disposition"] == 'inline; filename="logo.png"'
    assert headers["Accept-Ranges"] == "bytes"
    assert headers["ETag"].startswith('"') and headers["ETag"][1:-1] in path
    assert int(headers["Content-Length"]) == len(response.content)
    assert len(response.content) == item["media_details"]["filesize"]
    head = api.request("HEAD", path)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["Content-Length"] == headers["Content-Length"]


def test_if_none_match_is_304(api: Api) -> None:
    path = path_of(uploaded(api)["url"])
    etag = api.get(path).headers["ETag"]
    again = api.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["ETag"] == etag
    assert api.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_ranges(api: Api) -> None:
    path = path_of(uploaded(api, image_bytes(300, 300))["url"])
    whole = api.get(path).content
    size = len(whole)
    first = api.get(path, headers={"Range": "bytes=0-9"})
    assert first.status_code == 206
    assert first.content == whole[:10]
    assert first.headers["Content-Range"] == f"bytes 0-9/{size}"
    suffix = api.get(path, headers={"Range": "bytes=-5"})
    assert suffix.status_code == 206 and suffix.content == whole[-5:]
    rest = api.get(path, headers={"Range": f"bytes={size - 3}-"})
    assert rest.status_code == 206 and rest.content == whole[-3:]
    clipped = api.get(path, headers={"Range": f"bytes=10-{size + 100}"})
    assert clipped.status_code == 206 and clipped.content == whole[10:]
    past = api.get(path, headers={"Range": f"bytes={size}-"})
    assert past.status_code == 416
    assert past.headers["Content-Range"] == f"bytes */{size}"
    several = api.get(path, headers={"Range": "bytes=0-1,5-6"})
    assert several.status_code == 200 and several.content == whole
    stale = api.get(path, headers={"Range": "bytes=0-9", "If-Range": '"old"'})
    assert stale.status_code == 200 and stale.content == whole


def test_unknown_files_and_other_methods(api: Api) -> None:
    path = path_of(uploaded(api, filename="a.png")["url"])
    wrong_name = path.rsplit("/", 1)[0] + "/b.png"
    assert api.get(wrong_name).status_code == 404
    assert api.get(wrong_name).json()["code"] == "rest_no_route"
    assert api.get("/uploads/" + "0" * 32 + "/a.png").status_code == 404
    assert api.get("/uploads/../etc/passwd").status_code == 404
    posted = api.post(path)
    assert posted.status_code == 405
    assert posted.headers["Allow"] == "GET, HEAD"


def test_doc_describes_both_upload_forms_and_the_errors(api: Api) -> None:
    doc = api.get("/cal/events/v1/doc").json()
    create = doc["paths"]["/media"]["post"]
    content = create["requestBody"]["content"]
    assert {"multipart/form-data", "image/*", "application/json"} <= set(content)
    assert content["image/*"]["schema"]["format"] == "binary"
    form = content["multipart/form-data"]["schema"]["properties"]
    assert form["file"]["format"] == "binary"
    assert {"title", "alt_text", "caption"} <= set(form)
    assert {"201", "400", "401", "403", "413"} <= set(create["responses"])
    delete = doc["paths"]["/media/{id}"]["delete"]
    assert "409" in delete["responses"]
    assert "force" in {p["name"] for p in delete.get("parameters", [])} | set(
        delete.get("requestBody", {})
        .get("content", {})
        .get("application/json", {})
        .get("schema", {})
        .get("properties", {})
    )
    assert "Media" in doc["components"]["schemas"]
