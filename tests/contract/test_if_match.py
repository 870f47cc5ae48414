"""``If-Match`` on writes: a stale, weak or junk tag is a 412 that changes nothing; ``*``, a
list holding the current tag, or no header let the write through."""

from __future__ import annotations

from tests.contract.helpers import Case


def test_a_tag_that_does_not_match_is_412_and_changes_nothing(case: Case) -> None:
    item_id = case.item_id()
    stale = case.api.get(case.path(item_id)).headers["ETag"]
    assert case.api.patch(case.path(item_id), json=case.declared.update).status_code == 200
    current = case.api.get(case.path(item_id)).headers["ETag"]
    before = case.stored(item_id), case.log()
    for tag in (stale, f"W/{current}", '"junk"', "junk", '"r3-x"', '"r02-x"'):
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            payload = None if method == "DELETE" else case.declared.create
            response = case.api.request(
                method,
                case.path(item_id),
                json=payload,
                headers={"If-Match": tag},
                as_="administrator",
            )
            assert response.status_code == 412, (tag, method, response.text)
            body = response.json()
            assert body["code"] == "rest_precondition_failed"
            assert body["data"] == {"status": 412, "revision": 2}
    assert (case.stored(item_id), case.log()) == before


def test_a_matching_tag_a_star_or_no_header_let_the_write_through(case: Case) -> None:
    item_id = case.item_id()
    stale = case.api.get(case.path(item_id)).headers["ETag"]
    name = case.name_field.name
    assert (
        case.api.patch(case.path(item_id), json={name: "A"}, headers={"If-Match": "*"}).status_code
        == 200
    )
    current = case.api.get(case.path(item_id)).headers["ETag"]
    listed = case.api.patch(
        case.path(item_id), json={name: "B"}, headers={"If-Match": f"{stale}, {current}"}
    )
    assert listed.status_code == 200, listed.text
    assert listed.headers["ETag"].startswith('"r3-')
    assert case.api.patch(case.path(item_id), json={name: "C"}).status_code == 200
    stored = case.stored(item_id)
    assert stored is not None
    assert (stored[case.resource.name_field], stored["revision"]) == ("C", 4)
    current = case.api.get(case.path(item_id)).headers["ETag"]
    exact = case.api.post(case.path(item_id), json={name: "D"}, headers={"If-Match": current})
    assert exact.status_code == 200, exact.text
    deleted = case.api.delete(case.path(item_id), headers={"If-Match": exact.headers["ETag"]})
    assert deleted.status_code == 200
