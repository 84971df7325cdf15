"""Card text as data: the machinery every game's effect vocabulary is built on.

A card's effects are YAML entries `{on: <trigger>, do: <op>, target: <selector>, if: {...},
...params}`. A game declares its words (triggers, ops, selectors, conditions, and any kind of its
own such as keywords) with typed parameters; `Vocabulary.parse_effect` checks an entry against
them and returns an `Effect` the game compiles into its own fast form. Every mistake is one
ConfigError naming file:line, the card, and the nearest valid word.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from balance.core.config import validate_mapping, validate_value
from balance.core.errors import ConfigError, did_you_mean
from balance.core.yamlio import LineList, LineMap, key_line, line_map


@dataclass(frozen=True)
class Word:
    """One word of a vocabulary and the type of its parameters (None: it takes none)."""

    name: str
    doc: str
    params: Any = None  # a pydantic model for keyword parameters, or any type for a single value
    aliases: tuple[str, ...] = ()
    adapter: TypeAdapter[Any] | None = field(default=None, compare=False, repr=False)

    def params_text(self) -> str:
        """The parameters as a designer writes them: `n: int, until: attack|turn = attack`."""
        if self.params is None:
            return ""
        if isinstance(self.params, type) and issubclass(self.params, BaseModel):
            parts = []
            for name, info in self.params.model_fields.items():
                shown = f"{info.alias or name}: {_type_text(info.annotation)}"
                if not info.is_required():
                    shown += f" = {_default_text(info.default)}"
                parts.append(shown)
            return ", ".join(parts)
        return _type_text(self.params)


class Section:
    """One kind of word in a game's vocabulary: its triggers, its ops, its selectors, ..."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.words: dict[str, Word] = {}
        self._by_alias: dict[str, str] = {}

    def add(self, name: str, doc: str, params: Any = None, aliases: tuple[str, ...] = ()) -> int:
        """Declare a word; its code is returned: its place in declaration order, the small int
        a compiled effect holds (`DRAW = ops.add("draw", ...)`), so no list of codes is kept in
        step with the words by hand."""
        if name in self.words or name in self._by_alias:
            raise ValueError(f"{self.kind} '{name}' declared twice")
        adapter = TypeAdapter(params) if params is not None else None
        self.words[name] = Word(name, doc, params, aliases, adapter)
        for alias in aliases:
            self._by_alias[alias] = name
        return len(self.words) - 1

    def codes(self) -> dict[str, int]:
        """Every word's code by its name (aliases too): what a compiler looks a word up in."""
        codes = {name: code for code, name in enumerate(self.words)}
        return codes | {alias: codes[name] for alias, name in self._by_alias.items()}

    def resolve(self, word: object, file: str | None, line: int | None, context: str = "") -> Word:
        """The word `word` names (its own name or an alias), or a ConfigError with a hint."""
        name = self._by_alias.get(word, word) if isinstance(word, str) else word
        if isinstance(name, str) and name in self.words:
            return self.words[name]
        where = f"{context}: " if context else ""
        known = [*self.words, *self._by_alias]
        raise ConfigError(
            file, line, f"{where}unknown {self.kind} '{word}'", did_you_mean(str(word), known)
        )

    def __contains__(self, word: object) -> bool:
        return word in self.words or word in self._by_alias

    def __iter__(self) -> Iterator[Word]:
        return iter(self.words.values())

    def __len__(self) -> int:
        return len(self.words)


# The comparisons of compiled conditions, by code: a game's words for them ("<", "lt", ...)
# compile to these indexes, and `compare` reads them.
LT, LE, EQ, GE, GT = range(5)


def compare(a: int, op: int, b: int) -> bool:
    """`a <op> b` for a comparison code (LT, LE, EQ, GE, GT)."""
    if op == LT:
        return a < b
    if op == LE:
        return a <= b
    if op == EQ:
        return a == b
    if op == GE:
        return a >= b
    return a > b


@dataclass(frozen=True)
class Target:
    selector: str  # the selector's name; "" for a game whose targets are one structured mapping
    params: Any = None


@dataclass(frozen=True)
class Effect:
    """One checked effect entry, ready for a game to compile into its own form."""

    trigger: str | None  # None for a nested step (a `then:` follow-up) that has no trigger
    op: str
    params: Any  # the op's parameters (its pydantic model instance), or None
    target: Target | None
    conditions: Mapping[str, Any]  # condition name -> checked value
    fields: Any  # the game's own entry fields (its `entry_fields` model instance), or None
    file: str | None
    line: int | None


_SPECIAL_KEYS = ("on", "do", "target", "if")


class Vocabulary:
    """A game's card vocabulary: triggers, ops, selectors, conditions, and kinds of its own.

    `entry_fields` is a pydantic model of the keys an entry may carry besides `on`, `do`,
    `target`, `if` and the op's parameters (e.g. `timing`, `cost`, `optional`). A game whose
    targets are one structured mapping rather than named selectors passes `target_fields`. A
    game whose compiled spec declares the trigger words (their codes are what its compiled
    effects hold, read by modules below the vocabulary) passes that section as `triggers`.
    """

    def __init__(
        self,
        game: str,
        entry_fields: type[BaseModel] | None = None,
        target_fields: type[BaseModel] | None = None,
        triggers: Section | None = None,
    ) -> None:
        self.game = game
        self.entry_fields = entry_fields
        self.target_fields = target_fields
        self._target_adapter = TypeAdapter(target_fields) if target_fields is not None else None
        self.triggers = Section("trigger") if triggers is None else triggers
        self.ops = Section("op")
        self.selectors = Section("selector")
        self.conditions = Section("condition")
        self.kinds: dict[str, Section] = {}

    def kind(self, name: str) -> Section:
        """A kind of word of the game's own (e.g. "keyword"), created on first use."""
        if name not in self.kinds:
            self.kinds[name] = Section(name)
        return self.kinds[name]

    def sections(self) -> list[Section]:
        core = [self.triggers, self.ops, self.selectors, self.conditions]
        return [s for s in core if len(s)] + list(self.kinds.values())

    def parse_effect(
        self, entry: Any, context: str, file: str | None = None, line: int | None = None
    ) -> Effect:
        """Check one `{on: ..., do: ...}` entry of the card named in `context`."""
        entry = self._mapping(entry, context, file, line)
        if "on" not in entry:
            raise ConfigError(
                entry.file,
                entry.line,
                f"{context}: effect has no 'on:' trigger",
                "add on: <trigger>",
            )
        trigger = self.triggers.resolve(entry["on"], entry.file, entry.key_lines["on"], context)
        return self._parse(entry, context, trigger.name)

    def parse_step(
        self, entry: Any, context: str, file: str | None = None, line: int | None = None
    ) -> Effect:
        """Check one `{do: ...}` step that has no trigger of its own (a `then:` follow-up)."""
        entry = self._mapping(entry, context, file, line)
        return self._parse(entry, context, None)

    def parse_target(self, value: Any, context: str, where: LineMap | LineList, key: Any) -> Target:
        """Check a `target:` value found at `where[key]`: a selector name, `{selector: params}`,
        or (with `target_fields`) one structured mapping."""
        line = key_line(where, key)
        if isinstance(value, str):
            word = self.selectors.resolve(value, where.file, line, context)
            if word.adapter is not None and not _accepts_none(word):
                raise ConfigError(
                    where.file,
                    line,
                    f"{context}: selector '{word.name}' needs parameters",
                    f"write {{{word.name}: {word.params_text()}}}",
                )
            return Target(word.name, None)
        if isinstance(value, dict):
            if len(value) == 1:
                (name,) = value
                if name in self.selectors:
                    word = self.selectors.resolve(name, where.file, line, context)
                    if word.adapter is None:
                        raise ConfigError(
                            where.file,
                            line,
                            f"{context}: selector '{word.name}' takes no parameters",
                            f"write target: {word.name}",
                        )
                    inner = (
                        value if isinstance(value, LineMap) else line_map(value, where.file, line)
                    )
                    return Target(word.name, validate_value(word.adapter, value[name], inner, name))
            if self._target_adapter is not None:
                return Target("", validate_value(self._target_adapter, value, where, key))
            names = list(value)
            unknown = next((n for n in names if n not in self.selectors), names[0] if names else "")
            raise ConfigError(
                where.file,
                line,
                f"{context}: unknown selector '{unknown}'",
                did_you_mean(str(unknown), [*self.selectors.words]),
            )
        if self._target_adapter is not None:
            return Target("", validate_value(self._target_adapter, value, where, key))
        raise ConfigError(
            where.file,
            line,
            f"{context}: a target is a selector name or {{selector: params}}",
            did_you_mean(str(value), [*self.selectors.words]),
        )

    def parse_conditions(
        self, value: Any, context: str, where: LineMap | LineList, key: Any
    ) -> dict[str, Any]:
        """Check an `if:` mapping: every key a known condition, every value of its type."""
        line = key_line(where, key)
        if not isinstance(value, dict):
            raise ConfigError(
                where.file,
                line,
                f"{context}: 'if:' takes a mapping of conditions",
                "write if: {condition: value}",
            )
        node = value if isinstance(value, LineMap) else line_map(value, where.file, line)
        checked: dict[str, Any] = {}
        for name, raw in node.items():
            word = self.conditions.resolve(name, node.file, key_line(node, name), context)
            checked[word.name] = (
                validate_value(word.adapter, raw, node, name) if word.adapter is not None else raw
            )
        return checked

    def _parse(self, entry: LineMap, context: str, trigger: str | None) -> Effect:
        if "do" not in entry:
            raise ConfigError(
                entry.file, entry.line, f"{context}: effect has no 'do:' op", "add do: <op>"
            )
        op = self.ops.resolve(entry["do"], entry.file, entry.key_lines.get("do"), context)
        entry_keys = _field_keys(self.entry_fields)
        own = LineMap(entry.file, entry.line)
        params = LineMap(entry.file, entry.line)
        for key, value in entry.items():
            if key in _SPECIAL_KEYS:
                continue
            bucket = own if key in entry_keys else params
            bucket[key] = value
            bucket.key_lines[key] = entry.key_lines.get(key, entry.line)
            if key in entry.overridden:
                bucket.overridden[key] = entry.overridden[key]
        if params and op.adapter is None:
            key = next(iter(params))
            raise ConfigError(
                entry.file,
                params.key_lines[key],
                f"{context}: op '{op.name}' takes no parameter '{key}'",
                did_you_mean(str(key), sorted(entry_keys)),
            )
        checked_params = None
        if op.adapter is not None:
            known = sorted({*_field_keys(op.params), *entry_keys})
            for key in params:
                if _is_model(op.params) and key not in _field_keys(op.params):
                    raise ConfigError(
                        entry.file,
                        params.key_lines[key],
                        f"{context}: op '{op.name}' has no parameter '{key}'",
                        did_you_mean(str(key), known),
                    )
            checked_params = validate_mapping(op.adapter, params)
        fields = (
            validate_mapping(TypeAdapter(self.entry_fields), own) if self.entry_fields else None
        )
        target = (
            self.parse_target(entry["target"], context, entry, "target")
            if "target" in entry
            else None
        )
        conditions = (
            self.parse_conditions(entry["if"], context, entry, "if") if "if" in entry else {}
        )
        return Effect(
            trigger, op.name, checked_params, target, conditions, fields, entry.file, entry.line
        )

    def _mapping(self, entry: Any, context: str, file: str | None, line: int | None) -> LineMap:
        if isinstance(entry, LineMap):
            return entry
        if isinstance(entry, dict):
            return line_map(entry, file, line)
        raise ConfigError(
            file,
            line,
            f"{context}: an effect is a mapping like {{on: ..., do: ...}}",
            "check the indentation",
        )


def _is_model(params: Any) -> bool:
    return isinstance(params, type) and issubclass(params, BaseModel)


def _field_keys(model: Any) -> set[str]:
    if not _is_model(model):
        return set()
    return {info.alias or name for name, info in model.model_fields.items()}


def _accepts_none(word: Word) -> bool:
    try:
        assert word.adapter is not None
        word.adapter.validate_python(None)
        return True
    except (ValidationError, AssertionError):
        return False


def _type_text(annotation: Any) -> str:
    """A type as a designer reads it: `int`, `attack|turn`, `int|atk`, `list[str]`."""
    text: str | None = annotation.__name__ if isinstance(annotation, type) else None
    if text:
        return text
    shown = str(annotation).replace("typing.", "")
    args = getattr(annotation, "__args__", None) or ()
    if shown.startswith("Literal["):
        return "|".join(str(a) for a in args)
    if shown.startswith(("Union[", "Optional[")) or " | " in shown:
        parts = [_type_text(a) for a in args if a is not type(None)]
        return "|".join(parts) + ("|none" if type(None) in args else "")
    if args and hasattr(annotation, "__origin__"):
        origin = getattr(annotation.__origin__, "__name__", str(annotation.__origin__))
        return f"{origin}[{', '.join(_type_text(a) for a in args)}]"
    return shown


def _default_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, BaseModel):  # a nested model's default: only what it sets
        shown = {k: v for k, v in value.model_dump().items() if v is not None}
        return "{" + ", ".join(f"{k}: {_default_text(v)}" for k, v in shown.items()) + "}"
    return str(value)
