"""On-disk workspace: versioned source graph and index, switched atomically by a manifest.

Layout of a workspace directory W::

    W/manifest.json        {"format", "source": "g0002", "index": "v0003", "updated"}
    W/config.json          SgragConfig without secrets
    W/sources/g0002/       the knowledge graph (imported and/or extracted from documents)
    W/versions/v0003/      a built index (graph snapshot, embeddings, FAISS, GNN, R*-tree)
    W/cache/embeddings/    label embeddings by embedder, reused across builds
    W/docs/                documents, chunks and the extraction cache (see ingest.py)

A writer creates a new numbered directory beside the old one and then replaces
manifest.json in one rename, so a crash at any point leaves the previous version in use.
Old versions are pruned only after the switch.
"""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

from .config import SgragConfig
from .errors import WorkspaceError
from .fsutil import atomic_write_json, read_json
from .graph import KnowledgeGraph

MANIFEST_FORMAT = 1
KEEP_VERSIONS = 2


class Workspace:
    """A workspace directory; cheap to construct, reads the manifest on demand."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path).expanduser().resolve()

    # ---- creation and metadata ------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike, config: SgragConfig | None = None) -> "Workspace":
        ws = cls(path)
        ws.path.mkdir(parents=True, exist_ok=True)
        if not (ws.path / "manifest.json").exists():
            atomic_write_json(ws.path / "manifest.json", {"format": MANIFEST_FORMAT, "source": None,
                                                          "index": None, "updated": time.time()})
        if config is not None or not (ws.path / "config.json").exists():
            ws.save_config(config or SgragConfig())
        return ws

    @property
    def exists(self) -> bool:
        return (self.path / "manifest.json").exists()

    def manifest(self) -> dict:
        m = read_json(self.path / "manifest.json")
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
        atomic_write_json(self.path / "config.json", config.to_dict())

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
        shutil.rmtree(d, ignore_errors=True)
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
                shutil.rmtree(p, ignore_errors=True)
        for p in committed[:-KEEP_VERSIONS]:
            if p.name != keep:
                shutil.rmtree(p, ignore_errors=True)

    # ---- source graph ----------------------------------------------------------------------
    def save_source_graph(self, graph: KnowledgeGraph) -> str:
        """Store ``graph`` as the new source graph (atomic switch); returns its version."""
        tmp = self._new_dir("sources", "g")
        graph.save(tmp)
        return self._commit_dir(tmp, "source")

    def source_graph(self) -> KnowledgeGraph | None:
        name = self.manifest().get("source")
        return KnowledgeGraph.load(self.path / "sources" / name) if name else None

    @property
    def source_version(self) -> str | None:
        return self.manifest().get("source")

    # ---- index versions --------------------------------------------------------------------
    def new_index_dir(self) -> Path:
        return self._new_dir("versions", "v")

    def commit_index(self, tmp: Path) -> str:
        return self._commit_dir(tmp, "index")

    def discard(self, tmp: Path) -> None:
        shutil.rmtree(tmp, ignore_errors=True)

    @property
    def index_version(self) -> str | None:
        return self.manifest().get("index")

    def index_dir(self) -> Path:
        name = self.index_version
        if not name:
            raise WorkspaceError(f"workspace {self.path} has no built index yet; run "
                                 f"`python -m sgrag build --workspace {self.path}`")
        return self.path / "versions" / name

    def delete(self) -> None:
        """Remove the whole workspace directory (only if it is a workspace)."""
        if not self.exists:
            raise WorkspaceError(f"{self.path} is not an sgrag workspace; refusing to delete it")
        shutil.rmtree(self.path)


def list_workspaces(root: str | os.PathLike) -> list[Path]:
    """Workspace directories directly under ``root``."""
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "manifest.json").exists())
