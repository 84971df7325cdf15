"""A run folder's files as every reader and writer names them, written atomically and read with
one-line errors.

A file is replaced whole or not at all: it is written beside its place, flushed to disk, then
renamed over it (`os.replace` is atomic), so a run stopped at any instant, even by SIGKILL,
leaves the previous version or the next one, never half of one. A reader that meets a damaged
or missing file says which, in one line (a `ConfigError`), instead of a parser's traceback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from balance.core.errors import ConfigError

MANIFEST = "run.json"
GAMES = "games.parquet"
CARDS = "cards.parquet"
CRASHES = "crashes.json"

RERUN = "resume it with balance simulate --resume RUN, or run it again"


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """Yields a temporary path to write; when the block ends without error, that file replaces
    `path` in one step (after reaching the disk). On an error the temporary file is removed."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        yield temporary
        with open(temporary, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    with replacing(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


def write_json(path: Path, data: Any) -> None:
    write_atomic(path, json.dumps(data, indent=1, default=str))


def read_json(path: Path) -> Any:
    """A JSON file, or a ConfigError naming it (missing, unreadable, not JSON)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(str(path), None, "missing", RERUN) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(str(path), None, f"cannot read it: {_reason(e)}", RERUN) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(str(path), e.lineno, f"not valid JSON: {e.msg}", RERUN) from None


def read_manifest(folder: Path) -> dict[str, Any]:
    """The run's run.json as a dict, or a ConfigError naming what is wrong with the folder."""
    if not folder.is_dir():
        problem = "is a file, not a run folder" if folder.exists() else "no such run folder"
        raise ConfigError(str(folder), None, problem, "pass a folder written by balance simulate")
    if not (folder / MANIFEST).exists():
        raise ConfigError(
            str(folder),
            None,
            f"not a run folder (no {MANIFEST})",
            "pass a folder written by balance simulate",
        )
    manifest = read_json(folder / MANIFEST)
    if not isinstance(manifest, dict) or "game" not in manifest:
        raise ConfigError(
            str(folder / MANIFEST), 1, "not a run manifest (a JSON object naming its game)", RERUN
        )
    return manifest


def read_table(path: Path, **read: Any) -> Any:
    """A parquet file as a pandas table, or a ConfigError naming it (missing, cut short)."""
    import pandas as pd
    import pyarrow as pa

    if not path.exists():
        raise ConfigError(str(path), None, "missing", RERUN)
    try:
        return pd.read_parquet(path, **read)
    except (OSError, pa.ArrowException) as e:
        raise ConfigError(str(path), None, f"cannot read it: {_reason(e)}", RERUN) from None


def _reason(e: Exception) -> str:
    text = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
    return text.splitlines()[0] if text else type(e).__name__
