"""The document's events, typed by kind: each kind's payload model (tables/payloads.py)
as the document holds it.

Two things differ from the stored payload: a reference is a document id, or null
where the row is gone (tables/exports/refs.py), and `user_id` holds a username. A
payload its kind's model does not describe (a document written before the models, or
by a site that stored other keys then) is still read, as a plain object: an import
restores history as it was written. An event of a kind this version does not know
passes here too; the import refuses it by name (tables/exports/load.py).

No Django here, as in tables/exports/schema.py.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, Discriminator, Field, Tag, create_model

from tables import events
from tables.exports import refs

Json = dict[str, Any]
OTHER = "other"  # the tag of an event whose kind is not in the registry

_documented: dict[type, type] = {}


def _reference(name: str) -> Any:
    return str | None if refs.REF_KEYS[name] == refs.USERS else int | None


def in_document(tp: Any) -> Any:
    """`tp` (a payload type, or a type inside one) as the document holds it."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _model_in_document(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        return Annotated[(in_document(args[0]), *tp.__metadata__)]
    if origin in (Union, types.UnionType):
        return Union[tuple(in_document(a) for a in args)]  # noqa: UP007 (built from a tuple)
    if origin is list:
        return list[in_document(args[0])]
    return tp


def _model_in_document(model: type[BaseModel]) -> type[BaseModel]:
    if model not in _documented:
        fields = {}
        for name, info in model.model_fields.items():
            annotation = in_document(info.annotation)
            if name in refs.REF_KEYS:
                annotation = _reference(name)
            elif name == "id":  # a contest's own (refs.NESTED_ID)
                annotation = int | None
            fields[name] = (annotation, info)
        # Named apart from the document's own rows (schema.Contest, schema.D20Test…).
        _documented[model] = create_model(f"{model.__name__}Payload", __base__=model, **fields)
    return _documented[model]


def _event(kind: events.EventKind, untyped: type[BaseModel]) -> type[BaseModel]:
    return create_model(
        "".join(part.title() for part in kind.name.split("_")) + "Event",
        __base__=untyped,
        kind=(Literal[kind.name], ...),
        # Tried in order: the kind's model, else (an older payload) any object.
        payload=(
            Annotated[in_document(kind.payload) | Json, Field(union_mode="left_to_right")],
            ...,
        ),
    )


def _tag(value: Any) -> str:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return kind if kind in events.REGISTRY else OTHER


def event_type(untyped: type[BaseModel]) -> Any:
    """One event of the document: `untyped` (an event with any kind and payload) made
    the model of its kind, picked by `kind`; for a kind not registered, `untyped`."""
    members = [
        Annotated[_event(kind, untyped), Tag(name)] for name, kind in events.REGISTRY.items()
    ]
    unregistered = create_model(
        "UnregisteredKindEvent",
        __base__=untyped,
        # Published so that exactly one member fits an event (JSON Schema's oneOf).
        kind=(str, Field(json_schema_extra={"not": {"enum": list(events.REGISTRY)}})),
    )
    members.append(Annotated[unregistered, Tag(OTHER)])
    return Annotated[Union[tuple(members)], Discriminator(_tag)]  # noqa: UP007


def untagged(loc: tuple) -> tuple:
    """An error's location without the kind an event's model was picked by."""
    if len(loc) > 2 and loc[0] == "events" and isinstance(loc[1], int):
        if loc[2] in events.REGISTRY or loc[2] == OTHER:
            return (*loc[:2], *loc[3:])
    return loc
