"""sgrag: exact multi-constraint retrieval-augmented QA (Structure Guided RAG).

The public facade: the CLI and the Streamlit app import only what is listed here.

>>> from sgrag import Engine
>>> Engine.import_kg("ws", graphml="assets/demo/fb_erqa_mini.graphml")   # doctest: +SKIP
>>> Engine.build("ws")                                                     # doctest: +SKIP
>>> Engine.open("ws").ask("Which country is home to Santo Domingo ...?").answer.text  # doctest: +SKIP
"""
from .config import SgragConfig, api_key_from_env
from .errors import BuildCancelled, BuildError, InputFormatError, SgragError, WorkspaceError
from .graph import GraphBuilder, KnowledgeGraph
from .eval import EvalReport, run_eval
from .ingest import delete_document, ingest, list_documents
from .io.kg import write_graphml, write_json
from .llm import make_llm
from .pipeline import Engine, create_demo, trace_json
from .robustness import run_robustness
from .types import Answer, Match, Progress, QueryGraph, QueryTrace
from .workspace import Workspace, list_workspaces

__all__ = [
    "Answer", "BuildCancelled", "BuildError", "Engine", "EvalReport", "GraphBuilder", "InputFormatError",
    "KnowledgeGraph", "Match", "Progress", "QueryGraph", "QueryTrace", "SgragConfig", "SgragError", "Workspace",
    "WorkspaceError", "api_key_from_env", "create_demo", "delete_document", "ingest", "list_documents",
    "list_workspaces", "make_llm", "run_eval", "run_robustness", "trace_json", "write_graphml", "write_json",
]
