"""Kubernetes patches as the API server and kubectl compute them.

- ``merge``: apply a strategic merge patch (``kubectl patch``), lists merged by the patch
  metadata of the object's kind: containers by ``name``, finalizers as a set, ``$patch``
  directives, ``$retainKeys``, ``$setElementOrder``...
- ``diff`` and ``three_way``: the patches ``kubectl`` creates (two-way, and the three-way
  patch of ``kubectl apply``);
- ``apply``: client-side apply, with the last-applied-configuration annotation;
- ``server_side_apply`` and ``update``: server-side apply and the managedFields the API server
  records for every write;
- ``normalize``: union normalization (KEP-1027).

Documents are dicts (or JSON or YAML text, or the official client's models, or kr8s objects).
The schema comes from the document's ``apiVersion`` and ``kind``: every built-in kind of
Kubernetes v1.34 is known, custom resources by their CRDs (``crds=``). A document of no known
kind merges as a JSON merge patch does (lists replaced). The work runs in Rust without the
GIL.
"""

from __future__ import annotations

import datetime as _datetime
import os
from typing import Any, Iterable, Mapping, NamedTuple, Optional, Tuple, Union

from . import _native
from ._errors import Conflict, PatchError, SchemaError, SmpError
from ._native import KUBERNETES_VERSION, Crds, Schema

__all__ = [
    "KUBERNETES_VERSION",
    "ApplyResult",
    "Conflict",
    "Crds",
    "PatchError",
    "Schema",
    "SchemaError",
    "SmpError",
    "apply",
    "diff",
    "merge",
    "normalize",
    "server_side_apply",
    "three_way",
    "update",
]

#: A document: a dict, JSON or YAML text, an official client model, a kr8s object.
Document = Any
#: ``"apps/v1/Deployment"`` or ``("apps/v1", "Deployment")``.
Kind = Union[str, Tuple[str, str]]
#: A ``Crds``, or what ``Crds`` reads: dicts and paths of files or directories.
CrdSources = Union[Crds, Iterable[Union[Mapping[str, Any], str, "os.PathLike[str]"]]]


class ApplyResult(NamedTuple):
    """What client-side apply computes."""

    #: The three-way patch ``kubectl apply`` sends (with the annotation's update).
    patch: dict
    #: The live object with the patch applied.
    result: dict


def _document(obj: Document) -> Any:
    """The form the native module reads: dicts, lists, scalars and text as they are; the
    official client's models as ``ApiClient.sanitize_for_serialization`` writes them; kr8s
    objects (and other wrappers with a ``raw`` dict) as that dict."""
    if obj is None or isinstance(obj, (dict, list, str, bytes)):
        return obj
    raw = getattr(obj, "raw", None)
    if isinstance(raw, dict):
        return raw
    if hasattr(obj, "openapi_types") and hasattr(obj, "attribute_map"):
        return _serialize_model(obj)
    if isinstance(obj, Mapping):
        return dict(obj)
    raise TypeError(
        f"a document of type {type(obj).__name__}: expected a dict, JSON or YAML text, "
        "a kubernetes client model or a kr8s object"
    )


def _serialize_model(obj: Any) -> Any:
    """An OpenAPI-generated model (the official client's ``V1Deployment``...) in its JSON
    form: the wire names of its ``attribute_map``, unset attributes left out, times in ISO
    8601, as the client's ``sanitize_for_serialization`` writes them."""
    if obj is None or isinstance(obj, (str, int, float, bool, bytes)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [_serialize_model(item) for item in obj]
    if isinstance(obj, (_datetime.datetime, _datetime.date)):
        return obj.isoformat()
    if isinstance(obj, dict):
        return {key: _serialize_model(value) for key, value in obj.items()}
    if hasattr(obj, "openapi_types") and hasattr(obj, "attribute_map"):
        out = {}
        for attr in obj.openapi_types:
            value = getattr(obj, attr)
            if value is not None:
                out[obj.attribute_map[attr]] = _serialize_model(value)
        return out
    return obj


def _kind(kind: Optional[Kind]) -> Optional[Tuple[str, str]]:
    if kind is None:
        return None
    if isinstance(kind, tuple):
        api_version, name = kind
        return (api_version, name)
    api_version, sep, name = kind.rpartition("/")
    if not sep or not api_version or not name:
        raise ValueError(f"kind {kind!r}: expected 'apiVersion/Kind', e.g. 'apps/v1/Deployment'")
    return (api_version, name)


def _crds(crds: Optional[CrdSources]) -> Optional[Crds]:
    if crds is None or isinstance(crds, Crds):
        return crds
    return Crds([os.fspath(s) if isinstance(s, os.PathLike) else s for s in crds])


def _now(now: Union[None, str, _datetime.datetime]) -> Optional[str]:
    if now is None or isinstance(now, str):
        return now
    if now.tzinfo is None:
        raise ValueError("now: a datetime with a time zone")
    utc = now.astimezone(_datetime.timezone.utc).replace(microsecond=0, tzinfo=None)
    return utc.isoformat() + "Z"


def merge(
    original: Document,
    patch: Document,
    *,
    kind: Optional[Kind] = None,
    schema: Optional[Schema] = None,
    crds: Optional[CrdSources] = None,
) -> dict:
    """``original`` with the strategic merge patch ``patch`` applied, as ``kubectl patch``
    and the API server apply it. ``original`` is not changed.

    The schema is ``schema`` if given, else that of ``kind`` or of ``original``'s own
    ``apiVersion`` and ``kind`` (built-in, then ``crds``); without one, the patch is a JSON
    merge patch. Raises ``PatchError`` (with the JSON path) where the patch or the document
    is invalid.
    """
    return _native.merge(_document(original), _document(patch), schema, _crds(crds), _kind(kind))


def diff(
    original: Document,
    modified: Document,
    *,
    kind: Optional[Kind] = None,
    schema: Optional[Schema] = None,
    crds: Optional[CrdSources] = None,
) -> dict:
    """The strategic merge patch that turns ``original`` into ``modified`` (kubectl's two-way
    patch: ``$setElementOrder`` for merged lists, ``$patch: delete`` for removed items)."""
    return _native.diff(_document(original), _document(modified), schema, _crds(crds), _kind(kind))


def three_way(
    original: Document,
    modified: Document,
    current: Document,
    *,
    overwrite: bool = True,
    kind: Optional[Kind] = None,
    schema: Optional[Schema] = None,
    crds: Optional[CrdSources] = None,
) -> dict:
    """The three-way patch ``kubectl apply`` sends: from the last applied configuration
    (``original``) to the new one (``modified``), over the live object (``current``): what
    the configuration stopped setting is deleted, what others set is kept.

    With ``overwrite=False`` (``kubectl apply --overwrite=false``) a change that would undo
    another writer's change raises ``Conflict``.
    """
    return _native.three_way(
        _document(original),
        _document(modified),
        _document(current),
        overwrite,
        schema,
        _crds(crds),
        _kind(kind),
    )


def apply(
    live: Document,
    config: Document,
    *,
    overwrite: bool = True,
    kind: Optional[Kind] = None,
    schema: Optional[Schema] = None,
    crds: Optional[CrdSources] = None,
) -> ApplyResult:
    """Client-side apply, as ``kubectl apply -f`` computes it: the three-way patch from the
    live object's ``kubectl.kubernetes.io/last-applied-configuration`` annotation to
    ``config``, over ``live``, with the annotation updated; and ``live`` with it applied.
    Pass ``None`` (or ``{}``) as ``live`` for an object that does not exist yet."""
    patch, result = _native.apply(
        _document(live), _document(config), overwrite, schema, _crds(crds), _kind(kind)
    )
    return ApplyResult(patch, result)


def server_side_apply(
    live: Document,
    config: Document,
    *,
    manager: str,
    force: bool = False,
    subresource: Optional[str] = None,
    crds: Optional[CrdSources] = None,
    now: Union[None, str, _datetime.datetime] = None,
) -> dict:
    """Server-side apply of ``config`` by field manager ``manager`` over ``live`` (``None``:
    the object is created), as the API server computes it: the object it stores, with
    ``metadata.managedFields``.

    Raises ``Conflict`` when ``config`` changes fields other managers own (``force=True``
    takes them). ``subresource`` writes through one (``"status"``); ``now`` fixes the time
    recorded in managedFields (an RFC 3339 string or an aware datetime; default: the clock).
    The object is not defaulted as the server would default it.
    """
    return _native.server_side_apply(
        _document(live), _document(config), manager, force, subresource, _crds(crds), _now(now)
    )


def update(
    live: Document,
    new: Document,
    *,
    manager: str,
    subresource: Optional[str] = None,
    crds: Optional[CrdSources] = None,
    now: Union[None, str, _datetime.datetime] = None,
) -> dict:
    """``new`` with the managedFields the API server records when ``manager`` writes it
    without apply (a create, an update or a patch) over ``live`` (``None``: a create)."""
    return _native.update(
        _document(live), _document(new), manager, subresource, _crds(crds), _now(now)
    )


def normalize(
    new: Document,
    old: Optional[Document] = None,
    *,
    kind: Optional[Kind] = None,
    schema: Optional[Schema] = None,
    crds: Optional[CrdSources] = None,
) -> dict:
    """Union normalization (KEP-1027): with ``old``, a union member newly set clears the
    others and a changed discriminator keeps only the member it names. Raises ``PatchError``
    when a union is left with more than one member set."""
    return _native.normalize(
        _document(new),
        None if old is None else _document(old),
        schema,
        _crds(crds),
        _kind(kind),
    )
