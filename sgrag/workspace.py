"""On-disk workspace: versioned source graph and index, switched atomically by a manifest.

Layout of a workspace directory W::

    W/manifest.json        {"format", "source": "g0002", "index": "v0003", "updated"}
    W/config.json          SgragConfig without secrets
    W/sources/g0002/       the knowledge graph (imported and/or extracted from documents)
    W/versions/v0003/      a built index (graph snapshot, embeddings, FAISS, GNN, R*-tree)
    W/cache/embeddings/    label embeddings by embedder, reused across builds
    W/docs/                documents, chunks and the extraction cache (see ingest.py)

    W/.sgrag.lock          held (flock) by the one running writer; says who, since when
    W/.sgrag.progress.json the running build's stages (done/total per stage), for readers elsewhere

A writer creates a new numbered directory beside the old one and then replaces
manifest.json in one rename, so a crash at any point leaves the previous version in use.
Old versions are pruned only after the switch. Writers (import, ingest, build, document
and workspace deletion) hold the workspace lock, so a second writer is refused at once
while readers keep answering from the last committed index.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from .config import SgragConfig
from .errors import WorkspaceBusy, WorkspaceError
from .fsutil import atomic_write_json, contained, read_json, safe_remove
from .graph import KnowledgeGraph
from .types import Progress

MANIFEST_FORMAT = 1
KEEP_VERSIONS = 2
LOCK_NAME = ".sgrag.lock"
PROGRESS_NAME = ".sgrag.progress.json"
PROGRESS_EVERY_S = 0.5  # rewrites of the progress file at most this often (plus at each new stage and end)
DEBRIS_AGE_S = 300.0
"""A ``.tmp`` file younger than this may be an atomic write in flight (readers cache
embeddings, the app saves settings, a new workspace is being created): it is left alone."""
_held = threading.local()  # workspaces whose lock this thread holds (the lock is re-entrant)


class Workspace:
    """A workspace directory; cheap to construct, reads the manifest on demand."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path).expanduser().resolve()

    # ---- creation and metadata ------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike, config: SgragConfig | None = None) -> "Workspace":
        ws = cls(path)
        try:
            ws.path.mkdir(parents=True, exist_ok=True)
            # exclusive: a creator racing another (or a writer already at work) changes nothing
            atomic_write_json(ws.path / "config.json", (config or SgragConfig()).overrides(), exclusive=config is None)
            atomic_write_json(ws.path / "manifest.json", {"format": MANIFEST_FORMAT, "source": None,
                                                          "index": None, "updated": time.time()}, exclusive=True)
        except OSError as exc:
            raise WorkspaceError(f"cannot create a workspace at {path}: {exc.strerror or exc}") from exc
        return ws

    @property
    def exists(self) -> bool:
        try:
            return (self.path / "manifest.json").is_file()
        except OSError:  # a name too long for the file system
            return False

    def manifest(self) -> dict:
        try:
            m = read_json(self.path / "manifest.json")
        except (OSError, ValueError) as exc:
            raise WorkspaceError(f"{self.path} is not a readable sgrag workspace: "
                                 f"{getattr(exc, 'strerror', None) or exc}") from exc
        if m is None:
            raise WorkspaceError(f"{self.path} is not an sgrag workspace (no manifest.json); "
                                 f"create it with `python -m sgrag import-kg --workspace {self.path} ...`")
        if m.get("format") != MANIFEST_FORMAT:
            raise WorkspaceError(f"{self.path}: unsupported workspace format {m.get('format')}")
        return m

    def _switch(self, **changes) -> None:
        m = self.manifest()
        m.update(changes, updated=time.time())
        atomic_write_json(self.path / "manifest.json", m)

    def config(self) -> SgragConfig:
        return SgragConfig.from_dict(read_json(self.path / "config.json", {}))

    def save_config(self, config: SgragConfig) -> None:
        """Keep the settings that differ from the defaults (``SgragConfig.overrides``); every other one follows the
        installed sgrag."""
        atomic_write_json(self.path / "config.json", config.overrides())

    @property
    def cache_dir(self) -> Path:
        return self.path / "cache"

    @property
    def docs_dir(self) -> Path:
        return self.path / "docs"

    # ---- versioned directories --------------------------------------------------------------
    def _new_dir(self, kind: str, prefix: str) -> Path:
        base = self.path / kind
        base.mkdir(parents=True, exist_ok=True)
        nums = [int(m.group(1)) for p in base.iterdir() if (m := re.fullmatch(rf"{prefix}(\d+)(\.tmp)?", p.name))]
        d = base / f"{prefix}{(max(nums) + 1 if nums else 1):04d}.tmp"
        safe_remove(self.path, d)
        d.mkdir()
        return d

    def _commit_dir(self, tmp: Path, key: str) -> str:
        final = tmp.with_name(tmp.name.removesuffix(".tmp"))
        os.replace(tmp, final)
        self._switch(**{key: final.name})
        self._prune(final.parent, keep=final.name)
        return final.name

    def _prune(self, base: Path, keep: str) -> None:
        """Drop abandoned .tmp dirs and all but the newest KEEP_VERSIONS committed versions."""
        committed = sorted(p for p in base.iterdir() if p.is_dir() and not p.name.endswith(".tmp"))
        for p in base.iterdir():
            if p.name.endswith(".tmp"):
                safe_remove(self.path, p)
        for p in committed[:-KEEP_VERSIONS]:
            if p.name != keep:
                safe_remove(self.path, p)

    # ---- the single-writer lock ----------------------------------------------------------------
    @contextmanager
    def writer(self, command: str) -> Iterator["Workspace"]:
        """Hold the workspace's writer lock for ``command`` (re-entrant within a thread).

        A second writer (another process, or another thread here) gets WorkspaceBusy at once,
        naming the holder. The lock is an OS lock (flock), so a killed holder releases it;
        the stale holder note it leaves behind is overwritten by the next writer. Abandoned
        temporary files and build directories are removed once the lock is held.
        """
        held = _held.__dict__.setdefault("paths", set())
        key = str(self.path)
        if key in held:
            yield self
            return
        if not self.exists:
            self.manifest()  # raises the clear "not an sgrag workspace" error
        fd = _lock(self.path / LOCK_NAME, command)
        held.add(key)
        try:
            self.clean_debris()
            (self.path / PROGRESS_NAME).unlink(missing_ok=True)  # a killed build's: not this writer's progress
            yield self
        finally:
            held.discard(key)
            _unlock(fd, self.path / LOCK_NAME)

    def clean_debris(self) -> list[Path]:
        """Remove what killed writers left: ``*.tmp`` version dirs and stale atomic-write files.

        Call only with the writer lock held, so no live writer owns a ``.tmp`` version dir;
        temp files younger than DEBRIS_AGE_S are kept (someone may be writing them now).
        """
        removed: list[Path] = []
        for kind in ("versions", "sources"):
            base = self.path / kind
            for p in (base.iterdir() if base.is_dir() else ()):
                if p.name.endswith(".tmp"):
                    safe_remove(self.path, p)
                    removed.append(p)
        now = time.time()
        for dirpath, _dirs, files in os.walk(self.path):  # never follows symlinks
            for name in files:
                p = Path(dirpath) / name
                try:
                    if not (name.startswith(".") and name.endswith(".tmp")) \
                            or now - p.lstat().st_mtime < DEBRIS_AGE_S:
                        continue
                    safe_remove(self.path, p)
                except FileNotFoundError:
                    continue
                removed.append(p)
        return removed

    # ---- source graph ----------------------------------------------------------------------
    def save_source_graph(self, graph: KnowledgeGraph) -> str:
        """Store ``graph`` as the new source graph (atomic switch); returns its version."""
        tmp = self._new_dir("sources", "g")
        try:
            graph.save(tmp)
        except BaseException:
            self.discard(tmp)
            raise
        return self._commit_dir(tmp, "source")

    def source_graph(self) -> KnowledgeGraph | None:
        name = self.manifest().get("source")
        return KnowledgeGraph.load(contained(self.path / "sources", name)) if name else None

    @property
    def source_version(self) -> str | None:
        return self.manifest().get("source")

    # ---- index versions --------------------------------------------------------------------
    def new_index_dir(self) -> Path:
        return self._new_dir("versions", "v")

    def commit_index(self, tmp: Path) -> str:
        return self._commit_dir(tmp, "index")

    def discard(self, tmp: Path) -> None:
        safe_remove(self.path, tmp)

    @property
    def index_version(self) -> str | None:
        return self.manifest().get("index")

    def stale_index(self) -> tuple[str, str] | None:
        """(graph version the index was built from, the workspace's graph version) when they differ: an
        import or ingest changed the graph and no build followed (a killed writer, ``--no-build``). None
        when the index is current, or was built before indexes recorded their graph."""
        index = self.index_version
        if not index:
            return None
        built_from = read_json(contained(self.path / "versions", index) / "meta.json", {}).get("source")
        current = self.source_version
        return (built_from, current) if built_from and current and built_from != current else None

    def running_writer(self) -> dict | None:
        """The note of the writer holding the lock now ({command, pid, since, host}), or None.

        Read without taking the lock (a reader must never make a writer fail as busy): the lock file
        exists only while held, and a note left by a killed writer names a pid that is gone.
        """
        try:
            info = json.loads((self.path / LOCK_NAME).read_text(encoding="utf-8") or "{}")
        except (OSError, ValueError):
            return None
        if not isinstance(info, dict) or not isinstance(info.get("pid"), int):
            return None
        if info.get("host") == socket.gethostname():
            try:
                os.kill(info["pid"], 0)
            except ProcessLookupError:
                return None
            except PermissionError:
                pass  # alive, another user's
        return info

    def build_progress(self) -> dict:
        """The running build's stages as written by ``ProgressFile`` ({} when none is running)."""
        if self.running_writer() is None:
            return {}
        data = read_json(self.path / PROGRESS_NAME, {})
        return data if isinstance(data, dict) else {}

    def index_dir(self) -> Path:
        name = self.index_version
        if not name:
            raise WorkspaceError(f"workspace {self.path} has no built index yet; run "
                                 f"`python -m sgrag build --workspace {self.path}`")
        return contained(self.path / "versions", name)

    def delete(self) -> None:
        """Remove the whole workspace directory (see ``delete_workspace``)."""
        delete_workspace(self.path.parent, self.path.name)


def delete_workspace(root: str | os.PathLike, name: str) -> None:
    """Delete the workspace ``name`` directly under ``root``, touching nothing outside ``root``.

    A workspace that is a symlink is unlinked (its target, outside the root, is kept);
    ``name`` must be a plain directory name; a workspace with a running writer is refused.
    """
    base = Path(root).expanduser().resolve()
    if not name or name in (".", "..") or "/" in name or os.sep in name:
        raise WorkspaceError(f"{name!r} is not a workspace name")
    entry = base / name
    if entry.is_symlink():
        entry.unlink()
        return
    ws = Workspace(entry)
    if not ws.exists:
        raise WorkspaceError(f"{entry} is not an sgrag workspace; refusing to delete it")
    with ws.writer("delete-workspace"):
        safe_remove(base, entry)


def _holder(fd: int) -> dict:
    try:
        data = os.pread(fd, 4096, 0)
        info = json.loads(data.decode("utf-8")) if data.strip() else {}
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def _busy_message(path: Path, info: dict) -> str:
    since = info.get("since")
    when = (f" since {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(since))} "
            f"({time.time() - since:.0f} s ago)") if isinstance(since, (int, float)) else ""
    who = f"`{info.get('command', 'another sgrag command')}` (pid {info.get('pid', '?')} on {info.get('host', '?')})"
    return (f"workspace {path.parent} is busy: {who} has been writing to it{when}; try again when it "
            f"finishes (readers such as `ask` keep using the last built index)")


def _lock(lock: Path, command: str) -> int:
    """Take the exclusive flock on ``lock`` and record the holder; WorkspaceBusy if held."""
    for _ in range(10):
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise WorkspaceError(f"cannot lock workspace {lock.parent}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            info = _holder(fd)
            os.close(fd)
            raise WorkspaceBusy(_busy_message(lock, info), info) from None
        try:
            current = os.stat(lock).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            current = False
        if current:  # (else the previous holder unlinked it as we opened it: retry on the new file)
            note = json.dumps({"pid": os.getpid(), "command": command, "since": time.time(),
                               "host": socket.gethostname()}).encode()
            os.ftruncate(fd, 0)
            os.pwrite(fd, note, 0)
            return fd
        os.close(fd)
    raise WorkspaceError(f"cannot lock workspace {lock.parent}: the lock file keeps changing")


def _unlock(fd: int, lock: Path) -> None:
    """Remove the lock file while still holding it (so the workspace is left as found), then release."""
    try:
        lock.unlink(missing_ok=True)
    finally:
        os.close(fd)


def list_workspaces(root: str | os.PathLike) -> list[Path]:
    """Workspace directories directly under ``root``."""
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "manifest.json").exists())


class ProgressFile:
    """Progress sink tee: passes each report on and keeps ``W/.sgrag.progress.json`` current, so another
    process (the app, while a CLI build runs) can show how far the build is. Removed by ``close``."""

    def __init__(self, ws: Workspace, inner: Callable[[Progress], None]):
        self.path, self.inner = ws.path / PROGRESS_NAME, inner
        self.stages: dict[str, dict] = {}
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        self.inner(p)
        now = time.time()
        new = p.stage not in self.stages
        s = self.stages.setdefault(p.stage, {"stage": p.stage, "started": now})
        s.update(done=p.done, total=p.total, message=p.message, eta_s=p.eta_s, updated=now)
        if new or (p.total and p.done >= p.total) or now - self._last >= PROGRESS_EVERY_S:
            self._last = now
            try:
                atomic_write_json(self.path, self.stages)
            except OSError:
                pass  # progress for onlookers only: never fails the build

    def close(self) -> None:
        self.path.unlink(missing_ok=True)
