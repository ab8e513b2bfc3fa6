"""sgrag: exact multi-constraint retrieval-augmented QA (Structure Guided RAG).

The public facade: the CLI and the Streamlit app import only what is listed here.
Names load on first use (module ``__getattr__``), so ``import sgrag`` and the CLI's
``--help`` do not pay for torch, FAISS or the embedding model they may never need.

>>> from sgrag import Engine
>>> Engine.import_kg("ws", graphml="assets/demo/fb_erqa_mini.graphml")   # doctest: +SKIP
>>> Engine.build("ws")                                                     # doctest: +SKIP
>>> Engine.open("ws").ask("Which country is home to Santo Domingo ...?").answer.text  # doctest: +SKIP
"""
from __future__ import annotations

import importlib
from typing import Any

from .ingest import delete_document, import_kg, ingest, list_documents  # eager: `ingest` is also a submodule

_EXPORTS = {
    "SgragConfig": "config", "api_key_from_env": "config",
    "BuildCancelled": "errors", "BuildError": "errors", "InputFormatError": "errors", "SgragError": "errors",
    "WorkspaceBusy": "errors", "WorkspaceError": "errors",
    "GraphBuilder": "graph", "KnowledgeGraph": "graph",
    "EvalReport": "eval", "run_eval": "eval",
    "write_graphml": "io.kg", "write_json": "io.kg",
    "make_llm": "llm",
    "Engine": "pipeline", "create_demo": "pipeline", "trace_json": "pipeline",
    "run_robustness": "robustness",
    "EvidencePassage": "passages", "evidence_passage": "passages",
    "SchemaProfile": "schema",
    "rule_table": "rules",
    "Answer": "types", "Match": "types", "Progress": "types", "QueryGraph": "types", "QueryTrace": "types",
    "Workspace": "workspace", "delete_workspace": "workspace", "list_workspaces": "workspace",
}

__all__ = sorted([*_EXPORTS, "delete_document", "import_kg", "ingest", "list_documents"])


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sgrag' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
