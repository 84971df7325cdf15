"""YAML loading with `yaml.safe_load` semantics, but every mapping and list remembers its lines.

Two differences from PyYAML's defaults, both for designers writing card text:
- only `true`/`false` are booleans (YAML 1.2), so the effect key `on:` stays the string "on"
  (PyYAML's YAML 1.1 reads `on`, `off`, `yes`, `no` as booleans);
- a key given twice in one mapping is an error, not a silent overwrite.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from balance.core.errors import ConfigError


class LineMap(dict):
    """A YAML mapping that knows where it and each of its keys stand in their file."""

    __slots__ = ("file", "key_lines", "line", "overridden")

    def __init__(self, file: str, line: int) -> None:
        super().__init__()
        self.file = file
        self.line = line
        self.key_lines: dict[Any, int] = {}
        self.overridden: dict[Any, str] = {}  # key -> the `--set` text that last changed it


class LineList(list):
    """A YAML sequence that knows where it and each of its items stand in their file."""

    __slots__ = ("file", "item_lines", "line", "overridden")

    def __init__(self, file: str, line: int) -> None:
        super().__init__()
        self.file = file
        self.line = line
        self.item_lines: list[int] = []
        self.overridden: dict[Any, str] = {}


class _DesignerLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans."""


_DesignerLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_DesignerLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_yaml(path: Path, shown_as: str | None = None) -> Any:
    """Load one YAML file into LineMap / LineList / plain scalars. Errors name file:line."""
    shown = shown_as or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(shown, None, "file not found", "check the config folder") from None
    except UnicodeDecodeError as e:
        raise ConfigError(shown, None, f"not UTF-8 text ({e.reason})", "save it as UTF-8") from None
    return parse_yaml(text, shown)


def parse_yaml(text: str, shown_as: str) -> Any:
    loader = _DesignerLoader(text)
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
