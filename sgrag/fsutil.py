"""Crash-safe file writes: write beside the target, fsync, then rename over it."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .errors import WorkspaceError


def atomic_write_bytes(path: str | os.PathLike, data: bytes, exclusive: bool = False) -> bool:
    """Replace ``path`` with ``data`` so a reader sees the old or the new file, never half.

    ``exclusive``: only create ``path`` if it does not exist (two creators racing cannot
    overwrite what the winner, or a writer after it, put there); returns whether it wrote.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if not exclusive:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)
            return True
        except FileExistsError:
            return False
        finally:
            Path(tmp).unlink(missing_ok=True)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | os.PathLike, text: str, exclusive: bool = False) -> bool:
    return atomic_write_bytes(path, text.encode("utf-8"), exclusive)


def atomic_write_json(path: str | os.PathLike, obj: Any, exclusive: bool = False) -> bool:
    return atomic_write_text(path, json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True), exclusive)


def read_json(path: str | os.PathLike, default: Any = None) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        return default


def contained(root: str | os.PathLike, path: str | os.PathLike) -> Path:
    """``path`` (relative paths are under ``root``) made absolute without following its last
    component, refused unless it lies strictly inside ``root``.

    Every path that comes from a workspace file, an id or a name goes through this before
    it is deleted, so ``../..`` ids and symlinked parents cannot reach outside the root.
    """
    base = Path(root).resolve()
    p = Path(path)
    p = p if p.is_absolute() else base / p
    if p.name in ("", ".", ".."):
        raise WorkspaceError(f"refusing to touch {path}: not a file or directory name")
    full = p.parent.resolve() / p.name
    if full == base or not full.is_relative_to(base):
        raise WorkspaceError(f"refusing to touch {path}: it is outside {base}")
    return full


def safe_remove(root: str | os.PathLike, path: str | os.PathLike) -> None:
    """Delete a file or directory tree inside ``root``; a symlink is unlinked, never followed."""
    full = contained(root, path)
    if full.is_symlink() or full.is_file():
        full.unlink(missing_ok=True)
    elif full.is_dir():
        shutil.rmtree(full)  # fd-based: symlinks inside the tree are unlinked, not followed
