"""The media library: uploaded images, their renditions and files."""

from eventcal.domains.media.collection import MEDIA

__all__ = ["MEDIA"]
