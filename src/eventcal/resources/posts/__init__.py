"""The post family (events, venues, organizers): its rules, its behaviour in the pipeline, and
the fields and list conditions every post collection declares."""

from eventcal.resources.posts.behaviour import Posts

__all__ = ["Posts"]
