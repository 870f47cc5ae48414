"""How event writes and filters name categories and tags: ids, slugs or names, as one value, a
list or CSV."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eventcal.domains.terms import store
from eventcal.errors import InvalidParams, ParamError
from eventcal.http.args import MAX_TERMS, UNKNOWN_IDS, Invalid, check_count
from eventcal.http.request import RequestState
from eventcal.resources.references import FilterValue

if TYPE_CHECKING:
    from eventcal.context import Call
    from eventcal.resources.spec import Resource


class TermValues:
    """A term reference: a number is an id, a text a slug or a name."""

    async def parse(
        self, value: Any, state: RequestState, target: Resource, *, allow_csv: bool
    ) -> list[Any]:
        """Categories/tags of a write: ids, slugs or names; ``""``/``[]`` means none."""
        values = store.split_term_values(value)
        if values is None:
            raise Invalid()
        check_count(values, MAX_TERMS)
        return values

    async def resolve(self, call: Call, target: Resource, refs: list[Any], name: str) -> list[int]:
        """Term ids for a write; unknown names create terms for callers who may manage them;
        a number that names no term is refused, as an unknown venue is (the original skipped
        it: the write silently lost it)."""
        taxonomy = target.behaviour.taxonomy
        resolved = await store.resolve_write_terms(call.conn, taxonomy, refs)
        if resolved.unknown_ids:
            missing = ", ".join(map(str, resolved.unknown_ids))
            raise InvalidParams(
                {name: ParamError(reason=UNKNOWN_IDS, ids=missing)}  # "Invalid parameter."
            )
        ids = list(resolved.ids)
        if resolved.new_names:
            if not target.behaviour.may_manage(call.actor):
                raise InvalidParams(
                    {
                        name: ParamError(
                            "{name} names a term that does not exist: {term}.",
                            name=name,
                            term=resolved.new_names[0],
                        )
                    }
                )
            for term_name in resolved.new_names:
                ids.append(await store.find_or_create_term(call.conn, taxonomy, term_name))
        return ids

    async def filter(self, value: Any, state: RequestState, target: Resource) -> FilterValue:
        """Each value is a slug first (in the request's language, then the default), then an
        id; every one must name a term. A category also selects its descendants."""
        values = store.split_term_values(value)
        if not values:
            raise Invalid()
        check_count(values, MAX_TERMS)
        taxonomy = target.behaviour.taxonomy
        conn = state.conn
        ids = await store.resolve_filter_terms(conn, taxonomy, values, state.call.translating)
        if ids is None:
            raise Invalid()
        if target.behaviour.hierarchical:
            ids = await store.with_descendants(conn, taxonomy, ids)
        return FilterValue(ids, ",".join(v.text for v in values))
