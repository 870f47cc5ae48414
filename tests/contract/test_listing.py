"""Listing a collection: totals in the body and the headers, pages that cover every item once
and link to each other, and a page past the end (posts: 404; terms: an empty page)."""

from __future__ import annotations

from tests.contract.helpers import Case


def test_pages_cover_every_item_once_with_totals_and_links(case: Case) -> None:
    created = {case.item_id(f"Item {n}") for n in range(5)}
    query = {**case.declared.list_query, "per_page": "2"}
    response = case.api.get(case.path(), params=query)
    seen: list[int] = []
    pages = 0
    while True:
        assert response.status_code == 200, response.text
        body = response.json()
        pages += 1
        assert (body["total"], body["total_pages"]) == (5, 3)
        assert response.headers["X-TEC-Total"] == "5"
        assert response.headers["X-TEC-TotalPages"] == "3"
        items = body[case.resource.collection]
        assert 0 < len(items) <= 2
        seen += [item["id"] for item in items]
        assert ("previous_rest_url" in body) == (pages > 1)
        if "next_rest_url" not in body:
            break
        assert "per_page=2" in body["next_rest_url"]
        response = case.api.get(body["next_rest_url"])
    assert pages == 3
    assert sorted(seen) == sorted(created) and len(seen) == len(created)


def test_a_page_past_the_end(case: Case) -> None:
    case.item_id("Only item")
    response = case.api.get(case.path(), params={**case.declared.list_query, "page": "2"})
    if case.resource.behaviour.empty_pages:
        assert response.status_code == 200
        body = response.json()
        assert body[case.resource.collection] == [] and body["total"] == 1
        assert response.headers["X-TEC-Total"] == "1"
    else:
        assert response.status_code == 404
        assert response.json() == {
            "code": f"{case.resource.name}-archive-page-not-found",
            "message": case.resource.messages.no_archive_page,
            "data": {"status": 404},
        }
