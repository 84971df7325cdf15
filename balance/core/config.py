"""A game's config folder: its YAML documents, `--set` overrides, schema checks, and a hash.

Every game loads its folder the same way: `read_config` gives the documents (with lines, after
overrides) and their hash; `validate` runs a pydantic schema over one of them and turns the first
problem into a `ConfigError` naming file:line; `fail` does the same for checks a schema cannot make,
and `lookup` and `no_duplicates` are the two such checks every game's compiler makes (a name that
must be known, names that must differ). `spec_from_rules` copies the rules model into the compiled
spec by field name.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar, overload

from pydantic import BaseModel, TypeAdapter, ValidationError

from balance.core.errors import ConfigError, did_you_mean
from balance.core.yamlio import LineList, LineMap, key_line, line_of, load_yaml, parse_scalar, plain

Model = TypeVar("Model", bound=BaseModel)
Value = TypeVar("Value")
Spec = TypeVar("Spec")


@dataclass(frozen=True)
class ConfigDocuments:
    folder: Path
    data: Mapping[str, Any]  # document name ("rules", "cards", ...) -> its data, with lines
    config_hash: str

    def __getitem__(self, name: str) -> Any:
        return self.data[name]


def read_config(
    folder: Path,
    documents: Iterable[str] = ("rules", "cards", "decks"),
    overrides: Mapping[str, object] | None = None,
) -> ConfigDocuments:
    """Load `<folder>/<name>.yaml` for each document, then apply the dotted overrides."""
    if not folder.is_dir():
        problem = (
            "is a file, not a config folder" if folder.is_file() else "config folder not found"
        )
        raise ConfigError(str(folder), None, problem, "pass --config DIR")
    data: dict[str, Any] = {}
    for name in documents:
        path = folder / f"{name}.yaml"
        loaded = load_yaml(path, shown_as=_shown(path))
        data[name] = loaded if loaded is not None else LineMap(_shown(path), 1)
    for dotted, value in (overrides or {}).items():
        apply_override(data, dotted, value)
    return ConfigDocuments(folder, data, config_hash(data))


def config_hash(data: Mapping[str, Any]) -> str:
    text = json.dumps(plain(dict(data)), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def parse_overrides(pairs: Iterable[str]) -> dict[str, object]:
    """`["rules.turn_limit=40", ...]` -> `{"rules.turn_limit": 40}`, values read as YAML."""
    overrides: dict[str, object] = {}
    for pair in pairs:
        path, sep, text = pair.partition("=")
        if not sep or not path.strip():
            raise ConfigError(
                f"--set {pair}", None, "expected PATH=VALUE", "e.g. rules.turn_limit=40"
            )
        try:
            overrides[path.strip()] = parse_scalar(text.strip())
        except ConfigError as e:
            raise ConfigError(f"--set {pair}", None, e.message, "quote or fix the value") from None
    return overrides


def load_patch(path: Path) -> dict[str, object]:
    """A patch file (as `balance tune` writes): a mapping of override paths to values."""
    data = load_yaml(path)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            str(path), 1, "a patch is a mapping of PATH: VALUE", "e.g. cards.ember_fox_3.power: 4"
        )
    return {str(k): plain(v) for k, v in data.items()}


def apply_override(data: dict[str, Any], dotted: str, value: object) -> None:
    """Set `document.key.key...` to `value`. A list of mappings is addressed by its items' `id`
    (or their index); a document's top-level key named like the document may be skipped
    (`cards.ember_fox_1.power` reaches `cards: [...]` in cards.yaml). The last key may be new:
    the schema decides whether it is allowed.
    """
    if isinstance(value, str):
        value = parse_scalar(value)
    shown = f"--set {dotted}={_text(value)}"
    steps = dotted.split(".")
    document, path = steps[0], steps[1:]
    if document not in data:
        raise ConfigError(
            shown, None, f"no document '{document}'", did_you_mean(document, list(data))
        )
    if not path:
        raise ConfigError(shown, None, "the path names no field", f"e.g. {document}.<name>=VALUE")
    node = data[document]
    for i, step in enumerate(path):
        last = i == len(path) - 1
        if isinstance(node, LineMap):
            if step not in node and document in node and isinstance(node[document], (list, dict)):
                node = node[document]  # skip the top-level key named like the document
            if isinstance(node, LineMap):
                if last:
                    node[step] = value
                    node.overridden[step] = shown
                    return
                if step not in node:
                    raise ConfigError(
                        shown, None, f"no '{step}' in {document}", did_you_mean(step, list(node))
                    )
                node = node[step]
                continue
        if isinstance(node, LineList):
            index = _list_index(node, step)
            if index is None:
                ids = [str(item.get("id")) for item in node if isinstance(item, dict)]
                raise ConfigError(
                    shown, None, f"no '{step}' in {document}", did_you_mean(step, ids)
                )
            if last:
                node[index] = value
                node.overridden[index] = shown
                return
            node = node[index]
            continue
        raise ConfigError(shown, None, f"'{'.'.join(path[:i])}' has no fields", "shorten the path")


def value_at(data: Mapping[str, Any], dotted: str) -> Any:
    """The value an override path names (the same addressing as `apply_override`), or a
    ConfigError naming the path if there is none."""
    steps = dotted.split(".")
    document, path = steps[0], steps[1:]
    if document not in data:
        raise ConfigError(
            dotted, None, f"no document '{document}'", did_you_mean(document, list(data))
        )
    node = data[document]
    for step in path:
        if isinstance(node, dict) and step not in node and document in node:
            node = node[document]
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and (index := _list_index(node, step)) is not None:
            node = node[index]
        else:
            known = (
                list(node)
                if isinstance(node, dict)
                else [str(i.get("id")) for i in node if isinstance(i, dict)]
                if isinstance(node, list)
                else []
            )
            raise ConfigError(dotted, None, f"no '{step}' in {document}", did_you_mean(step, known))
    return node


def _list_index(items: list[Any], step: str) -> int | None:
    for index, item in enumerate(items):
        if isinstance(item, dict) and str(item.get("id")) == step:
            return index
    if step.isdigit() and int(step) < len(items):
        return int(step)
    return None


def validate(model: type[Model], data: Any) -> Model:
    """`model.model_validate(data)`, with the first problem raised as a one-line ConfigError."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise _config_error(e, data, _field_names(model)) from None


def validate_mapping(adapter: TypeAdapter[Any], data: LineMap) -> Any:
    """Validate a whole mapping with a TypeAdapter; errors name its keys' lines."""
    try:
        return adapter.validate_python(data)
    except ValidationError as e:
        raise _config_error_from(e.errors(), data, set()) from None


def validate_value(
    adapter: TypeAdapter[Any], data: Any, context: LineMap | LineList, key: Any
) -> Any:
    """Validate `data`, found at `context[key]`, with a pydantic TypeAdapter."""
    try:
        return adapter.validate_python(data)
    except ValidationError as e:
        wrapped = LineMap(context.file, context.line)
        wrapped[key] = data
        wrapped.key_lines[key] = key_line(context, key)
        if key in context.overridden:
            wrapped.overridden[key] = context.overridden[key]
        errors = e.errors()
        for error in errors:
            error["loc"] = (key, *error["loc"])
        raise _config_error_from(errors, wrapped, set()) from None


def fail(data: Any, loc: tuple[Any, ...], message: str, hint: str = "") -> ConfigError:
    """A ConfigError at the place `loc` names inside `data` (raise the returned error)."""
    file, line = line_of(data, loc)
    return ConfigError(file, line, message, hint)


@overload
def lookup(
    table: Mapping[str, Value],
    name: str,
    what: str,
    data: Any,
    loc: tuple[Any, ...],
    context: str = "",
) -> Value: ...


@overload
def lookup(
    table: Sequence[str], name: str, what: str, data: Any, loc: tuple[Any, ...], context: str = ""
) -> int: ...


def lookup(
    table: Mapping[str, Any] | Sequence[str],
    name: str,
    what: str,
    data: Any,
    loc: tuple[Any, ...],
    context: str = "",
) -> Any:
    """`table[name]` (a sequence of names: the name's index), or else a ConfigError at `loc`:
    `context: unknown what 'name' (did you mean ...?)`."""
    if name in table:
        return table[name] if isinstance(table, Mapping) else table.index(name)
    prefix = f"{context}: " if context else ""
    raise fail(data, loc, f"{prefix}unknown {what} '{name}'", did_you_mean(str(name), list(table)))


def no_duplicates(
    names: Iterable[str],
    what: str,
    data: Any,
    at: tuple[Any, ...],
    key: str | None = None,
    *,
    hint: str = "",
    context: str = "",
) -> dict[str, int]:
    """Each name -> its index, or a ConfigError at the second of two equal names:
    `context: what 'name' is listed twice (hint)`. The names are the list at `at` inside `data`
    (or, with `key`, that field of each of its items)."""
    index: dict[str, int] = {}
    default = f"give each {what} its own {key}" if key is not None else f"list each {what} once"
    for i, name in enumerate(names):
        if name in index:
            prefix = f"{context}: " if context else ""
            loc = (*at, i, key) if key is not None else (*at, i)
            raise fail(
                data,
                loc,
                f"{prefix}{what} '{name}' is listed twice",
                hint or default,
            )
        index[name] = i
    return index


def spec_from_rules(
    spec: type[Spec], rules: BaseModel, *, compiled_elsewhere: Collection[str] = (), **compiled: Any
) -> Spec:
    """The compiled spec: every field of the rules model under its own name (a list as a tuple),
    then `compiled`: the spec's other fields, and rules fields it keeps in another form (a value
    given there replaces the rules' own). `compiled_elsewhere` names the rules fields the spec
    holds only under other names. A rules field the spec lacks, or a spec field neither the rules
    nor `compiled` give, is a TypeError: the game's code is wrong, not the designer's YAML, and
    the first load of any config (every test of the game) says so.
    """
    rules_model = type(rules).__name__
    spec_fields = {f.name for f in fields(spec)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for name in type(rules).model_fields:
        if name in compiled or name in compiled_elsewhere:
            continue
        if name not in spec_fields:
            raise TypeError(
                f"{rules_model}.{name} is not a field of {spec.__name__} "
                "(add it to the spec, or name it in compiled_elsewhere=)"
            )
        value = getattr(rules, name)
        values[name] = tuple(value) if isinstance(value, list) else value
    stale = [name for name in compiled_elsewhere if name not in type(rules).model_fields]
    missing = sorted(spec_fields - values.keys() - compiled.keys())
    if stale or missing:
        raise TypeError(
            f"{spec.__name__}.{missing[0]} is neither a field of {rules_model} nor compiled "
            "(add it to the rules model, or pass it to spec_from_rules)"
            if missing
            else f"compiled_elsewhere names '{stale[0]}', which is not a field of {rules_model}"
        )
    return spec(**values, **compiled)


def _config_error(e: ValidationError, data: Any, known_fields: set[str]) -> ConfigError:
    return _config_error_from(e.errors(), data, known_fields)


def _config_error_from(errors: list[Any], data: Any, known_fields: set[str]) -> ConfigError:
    error = errors[0]
    loc = tuple(error["loc"])
    if error["type"] == "missing":  # a misspelt field is both missing and unknown: say both
        for other in errors:
            other_loc = tuple(other["loc"])
            if other["type"] == "extra_forbidden" and other_loc[:-1] == loc[:-1]:
                file, line = line_of(data, other_loc)
                field, wanted = str(other_loc[-1]), str(loc[-1])
                return ConfigError(file, line, f"unknown field '{field}', and {wanted} is missing",
                                   f"did you mean {wanted}?")  # fmt: skip
    file, line = line_of(data, loc)
    kind = error["type"]
    name = _readable(data, loc)
    message = error["msg"].removeprefix("Value error, ")
    got = error.get("input")
    if kind == "missing":
        return ConfigError(file, line, f"{name}: missing", "add it")
    if kind == "extra_forbidden":
        field = str(loc[-1]) if loc else "?"
        return ConfigError(
            file, line, f"unknown field '{field}'", did_you_mean(field, sorted(known_fields))
        )
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        return ConfigError(file, line, f"{name}: '{got}' is not allowed", f"use {expected}")
    hint = _HINTS.get(kind, "")
    shown = f" (got {got!r})" if got is not None and not isinstance(got, (dict, list)) else ""
    return ConfigError(file, line, f"{name}: {message[:1].lower()}{message[1:]}{shown}", hint)


_HINTS = {
    "int_parsing": "write a whole number",
    "int_type": "write a whole number",
    "int_from_float": "write a whole number",
    "float_parsing": "write a number",
    "bool_parsing": "write true or false",
    "bool_type": "write true or false",
    "string_type": "write text",
    "list_type": "write a list",
    "dict_type": "write a mapping of keys to values",
    "model_type": "write a mapping of keys to values",
    "greater_than_equal": "raise the number",
    "less_than_equal": "lower the number",
    "greater_than": "raise the number",
    "less_than": "lower the number",
}


def _readable(data: Any, loc: tuple[Any, ...]) -> str:
    """`("cards", 3, "power")` -> `cards.ember_fox_3.power`: list items by their id if they have one."""
    parts: list[str] = []
    node = data
    for step in loc:
        if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
            item_id = node.get("id") if isinstance(node, dict) else None
            parts.append(str(item_id) if item_id is not None else str(step))
        elif isinstance(node, dict) and step in node:
            node = node[step]
            parts.append(str(step))
        else:
            node = None
            parts.append(str(step))
    return ".".join(parts) or "value"


def _field_names(model: type[BaseModel]) -> set[str]:
    names: set[str] = set()
    stack: list[Any] = [model]
    seen: set[Any] = set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        for name, info in current.model_fields.items():
            names.add(info.alias or name)
            stack.extend(_models_in(info.annotation))
    return names


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found.append(annotation)
    for arg in getattr(annotation, "__args__", ()) or ():
        found.extend(_models_in(arg))
    return found


def _shown(path: Path) -> str:
    """A config path as a designer reads it: relative to the working folder where possible."""
    try:  # absolute, not resolved: a symlink loop must reach load_yaml to be reported there
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _text(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else value
