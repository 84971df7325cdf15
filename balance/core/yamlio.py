"""YAML loading with `yaml.safe_load` semantics, but every mapping and list remembers its lines.

Differences from PyYAML's defaults, for designers writing card text:
- only `true`/`false` are booleans (YAML 1.2), so the effect key `on:` stays the string "on"
  (PyYAML's YAML 1.1 reads `on`, `off`, `yes`, `no` as booleans);
- a key given twice in one mapping is an error, not a silent overwrite;
- a file is refused, with its line, before it can exhaust memory or the stack: values nested
  deeper than `MAX_DEPTH`, or more than `MAX_VALUES` values once every alias is expanded (an
  alias counts the whole value it names, so a "billion laughs" bomb is refused after reading
  a few lines), or an alias inside the value it names (a loop). A card config holds a few
  thousand values; the limits leave a hundredfold margin.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from balance.core.errors import ConfigError


class LineMap(dict[Any, Any]):
    """A YAML mapping that knows where it and each of its keys stand in their file."""

    __slots__ = ("file", "key_lines", "line", "overridden")

    def __init__(self, file: str, line: int) -> None:
        super().__init__()
        self.file = file
        self.line = line
        self.key_lines: dict[Any, int] = {}
        self.overridden: dict[Any, str] = {}  # key -> the `--set` text that last changed it


class LineList(list[Any]):
    """A YAML sequence that knows where it and each of its items stand in their file."""

    __slots__ = ("file", "item_lines", "line", "overridden")

    def __init__(self, file: str, line: int) -> None:
        super().__init__()
        self.file = file
        self.line = line
        self.item_lines: list[int] = []
        self.overridden: dict[Any, str] = {}


MAX_DEPTH = 100  # nesting levels: each costs a few stack frames while the file is read
MAX_VALUES = 200_000  # values after alias expansion: about 200 MB of nodes at most


class _DesignerLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans that counts what it composes (see the module's limits)."""

    def __init__(self, text: str, shown_as: str) -> None:
        super().__init__(text)
        self.shown_as = shown_as
        self.depth = 0
        self.values = 0  # values composed so far, every alias counted as the value it names
        self.sizes: dict[int, int] = {}  # id(anchored node) -> its size, aliases expanded

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[no-untyped-call]  # types-PyYAML leaves it bare
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent):
            named = self.anchors.get(event.anchor)
            if named is not None:
                size = self.sizes.get(id(named))
                if size is None:  # the anchored value is still being read: it contains itself
                    raise ConfigError(
                        self.shown_as,
                        line,
                        f"alias *{event.anchor} stands inside the value it names (a loop)",
                        "use the alias outside its anchor's value",
                    )
                self._count(size, line)
            return super().compose_node(parent, index)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ConfigError(
                self.shown_as,
                line,
                f"values nested more than {MAX_DEPTH} levels deep",
                "flatten the structure",
            )
        before = self.values
        self._count(1, line)
        node = super().compose_node(parent, index)
        self.depth -= 1
        if event.anchor is not None:
            self.sizes[id(node)] = self.values - before
        return node

    def _count(self, values: int, line: int) -> None:
        self.values += values
        if self.values > MAX_VALUES:
            raise ConfigError(
                self.shown_as,
                line,
                f"more than {MAX_VALUES:,} values (an alias counts as the values it repeats)",
                "a card config holds a few thousand: look for aliases that repeat large values",
            )


_DesignerLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_DesignerLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_yaml(path: Path, shown_as: str | None = None) -> Any:
    """Load one YAML file into LineMap / LineList / plain scalars. Errors name file:line.


    A config file holds a mapping or a list (or nothing): a lone value is refused here, where
    the file's name is known.
    """
    shown = shown_as or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(shown, None, "file not found", "check the config folder") from None
    except IsADirectoryError:
        raise ConfigError(shown, None, "is a folder, not a file", "check the path") from None
    except UnicodeDecodeError as e:
        raise ConfigError(shown, None, f"not UTF-8 text ({e.reason})", "save it as UTF-8") from None
    except OSError as e:  # unreadable, a symlink loop, a device that fails
        raise ConfigError(
            shown, None, f"cannot read it: {e.strerror or e}", "check the path and its permissions"
        ) from None
    data = parse_yaml(text, shown)
    if data is not None and not isinstance(data, (LineMap, LineList)):
        raise ConfigError(
            shown,
            1,
            f"holds the value {str(data)[:40]!r}, not a mapping or a list",
            "write `key: value` lines, as the shipped configs do",
        )
    return data


def parse_yaml(text: str, shown_as: str) -> Any:
    try:
        loader = _DesignerLoader(text, shown_as)
    except yaml.reader.ReaderError as e:  # a NUL or control character: found before parsing
        code = e.character if isinstance(e.character, int) else ord(e.character)
        raise ConfigError(
            shown_as,
            text.count("\n", 0, max(0, e.position)) + 1,
            f"invalid YAML: character #x{code:04x} is not allowed",
            "remove the control character",
        ) from None
    try:
        node = loader.get_single_node()
        return None if node is None else _convert(node, loader, shown_as)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        problem = e.problem or e.context or "invalid YAML"
        raise ConfigError(shown_as, line, f"invalid YAML: {problem}", "fix the syntax") from None
    except yaml.YAMLError as e:
        raise ConfigError(shown_as, None, f"invalid YAML: {e}", "fix the syntax") from None
    finally:
        loader.dispose()


def parse_scalar(text: str) -> Any:
    """A command-line value read as a YAML scalar or flow collection: `4`, `true`, `[3, 4]`."""
    return plain(parse_yaml(text, "--set"))


def _convert(node: yaml.Node, loader: _DesignerLoader, file: str) -> Any:
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # honours `<<:` merge keys
        mapping = LineMap(file, node.start_mark.line + 1)
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if key in mapping:
                raise ConfigError(
                    file, line, f"key '{key}' given twice in one mapping", "remove one of them"
                )
            mapping[key] = _convert(value_node, loader, file)
            mapping.key_lines[key] = line
        return mapping
    if isinstance(node, yaml.SequenceNode):
        sequence = LineList(file, node.start_mark.line + 1)
        for item in node.value:
            sequence.append(_convert(item, loader, file))
            sequence.item_lines.append(item.start_mark.line + 1)
        return sequence
    return loader.construct_object(node, deep=True)


def plain(data: Any) -> Any:
    """The same data as plain dicts and lists (for hashing and for output)."""
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data


def key_line(where: LineMap | LineList, key: Any) -> int:
    """The line of `where[key]`: a key's own line in a mapping, an item's in a list, else the
    line of `where` itself."""
    if isinstance(where, LineMap):
        return where.key_lines.get(key, where.line)
    if isinstance(key, int) and 0 <= key < len(where.item_lines):
        return where.item_lines[key]
    return where.line


def line_map(data: Mapping[Any, Any], file: str | None, line: int | None) -> LineMap:
    """A plain mapping (built in code, or parsed from `--set` text) as a LineMap whose keys all
    stand at `line`, so that errors about it can name file:line like a loaded one's."""
    node = LineMap(file or "", line or 0)
    for key, value in data.items():
        node[key] = value
        node.key_lines[key] = line or 0
    return node


def line_of(data: Any, loc: tuple[Any, ...]) -> tuple[str | None, int | None]:
    """Where the value at `loc` (a path of keys and indexes) stands: (file or `--set` text, line).

    Walks as deep as the path exists; an overridden value names the `--set` that set it.
    """
    node = data
    where: tuple[str | None, int | None] = (
        (node.file, node.line) if isinstance(node, (LineMap, LineList)) else (None, None)
    )
    for step in loc:
        if isinstance(node, LineMap) and step in node:
            if step in node.overridden:
                return node.overridden[step], None
            where = (node.file, node.key_lines.get(step, node.line))
            node = node[step]
        elif isinstance(node, LineList) and isinstance(step, int) and 0 <= step < len(node):
            if step in node.overridden:
                return node.overridden[step], None
            where = (node.file, node.item_lines[step])
            node = node[step]
        else:
            break
    return where
