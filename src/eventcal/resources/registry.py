"""Every collection of the service, and the relations between them, bound by name.

Declarations name the collections they link to (``Relation(target="venues")``); the registry
checks that every name is known and answers the questions that cross collections: which
collection a relation points at, and which relations point at a collection (so trashing a venue
can unlink it from events, and a venue listing can filter by event, without the venue's
declaration knowing events).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from eventcal.resources.spec import Relation, Resource


@dataclass(frozen=True, slots=True)
class Incoming:
    """A relation of ``source`` that points at a collection."""

    source: Resource
    relation: Relation


class Registry:
    """The collections in the order their routes are registered."""

    def __init__(self, resources: Sequence[Resource]) -> None:
        self.resources = tuple(resources)
        self._by_collection = {r.collection: r for r in self.resources}
        self._by_name = {r.name: r for r in self.resources}
        if len(self._by_collection) != len(self.resources):
            raise ValueError("two resources share a collection name")
        self._incoming: dict[str, list[Incoming]] = {r.collection: [] for r in self.resources}
        for resource in self.resources:
            for relation in (*resource.relations, *resource.refers):
                if relation.target not in self._by_collection:
                    raise ValueError(
                        f"{resource.collection}.{relation.name} names an unknown collection "
                        f"{relation.target!r}"
                    )
                self._incoming[relation.target].append(Incoming(resource, relation))

    def __iter__(self) -> Iterator[Resource]:
        return iter(self.resources)

    def __getitem__(self, collection: str) -> Resource:
        return self._by_collection[collection]

    def by_name(self, name: str) -> Resource | None:
        """The collection whose items are of kind ``name`` (``event``, ``tribe_events_cat``)."""
        return self._by_name.get(name)

    def target(self, relation: Relation) -> Resource:
        return self._by_collection[relation.target]

    def incoming(self, resource: Resource) -> list[Incoming]:
        """The relations of other collections that point at ``resource``."""
        return self._incoming[resource.collection]

    def incoming_named(self, resource: Resource, source: str, relation: str) -> Incoming:
        """The relation ``source.relation`` that points at ``resource``."""
        for incoming in self._incoming[resource.collection]:
            if incoming.source.collection == source and incoming.relation.name == relation:
                return incoming
        raise KeyError(f"no relation {source}.{relation} points at {resource.collection}")
