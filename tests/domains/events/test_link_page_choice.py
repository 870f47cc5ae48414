"""A page filtered by one category whose total is found in the item cache (the second page of
the same filter) still knows that the category has few events, and lists them first without
asking the day summaries (``link_pages``): the total counted or found is the query's
(``ListQuery.total``), not only one counted in this request."""

from __future__ import annotations

from datetime import datetime, timedelta

from tests import factories
from tests.conftest import NS, Api


def test_a_second_page_of_a_small_category_asks_no_summary(api: Api) -> None:
    db = api.database

    async def made() -> int:
        category = await factories.make_term(db, "Jazz")
        first = datetime(2026, 12, 15, 19, 0)
        for day in range(25):
            await factories.make_event(
                db, f"Jazz {day}", start=first + timedelta(days=day), term_ids=(category,)
            )
        return category

    category = api.run(made)

    def statements(page: int) -> int:
        before = api.statements
        response = api.get(f"{NS}/events?categories={category}&page={page}&per_page=10")
        assert response.status_code == 200, response.text
        assert response.headers["x-tec-total"] == "25"
        return api.statements - before

    first = statements(1)  # counts the total (and keeps it), lists the page
    second = statements(2)  # the total from the item cache: one statement fewer, nothing more
    assert second == first - 1
