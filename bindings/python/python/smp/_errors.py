"""The exceptions smp raises. Every one is an ``SmpError``."""

from __future__ import annotations

from typing import List, Optional, Tuple


class SmpError(Exception):
    """Base class of the exceptions of this package."""


class PatchError(SmpError, ValueError):
    """A document or a patch that cannot be merged (a list item without its merge key, a
    directive in the wrong place, a value of the wrong type, text that is not JSON or YAML...).

    ``path`` is the JSON path the error is about (``.spec.containers[0]``), when it names one.
    """

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        super().__init__(message)
        self.path = path


class Conflict(SmpError):
    """A change that would undo someone else's.

    Raised by server-side apply when the configuration changes fields other managers own
    (the API server's 409; pass ``force=True`` to take them), and by ``three_way`` and
    ``apply`` with ``overwrite=False`` where the live object was changed by others.
    ``conflicts`` lists ``(manager, path)`` for each field; the manager is ``None`` for a
    three-way conflict, which names no manager.
    """

    def __init__(self, message: str, conflicts: List[Tuple[Optional[str], str]]) -> None:
        super().__init__(message)
        self.conflicts = list(conflicts)

    @property
    def managers(self) -> List[str]:
        """The managers that own the conflicting fields, each once, in order."""
        return list(dict.fromkeys(m for m, _ in self.conflicts if m is not None))

    @property
    def paths(self) -> List[str]:
        """The conflicting fields."""
        return [path for _, path in self.conflicts]


class SchemaError(SmpError, ValueError):
    """An OpenAPI document, definition or CustomResourceDefinition that does not load."""
