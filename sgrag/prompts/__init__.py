"""The paper's prompts as named templates (one ``.txt`` file each), overridable as a set.

Templates use ``str.format`` placeholders. The wording follows the SG-RAG paper's tables
"Prompt Template for Text-to-Graph Extraction", "... for Query-to-Graph Extraction" and
"... for Answer Inference Using Matched Subgraph". One deliberate extension: extraction
edges carry a short relation phrase as an extra field,
``(<id><|><src><|><dst><|><relation><|><description>)``; ``sgrag.parse`` still accepts the
paper's four-field edges.

Example::

    >>> p = default_prompts()
    >>> msgs = query_graph_messages(p, "Which country contains Santo Domingo?")
    >>> msgs[0]["role"], "UNK" in msgs[0]["content"]
    ('user', True)
"""
from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterable, Mapping

from ..errors import SgragError

UNABLE = "Unable to determine"
"""The answer the inference prompt asks for when the evidence does not decide."""

COMPLETE = "<|COMPLETE|>"
"""Terminator the extraction prompts ask for; its absence means the output was cut off."""

Message = dict[str, str]

_PLACEHOLDERS = {
    "extract_graph": ("input_text",),
    "continue_extraction": (),
    "query_graph": ("user_query",),
    "answer_inference": ("relations", "question"),
    "relation_sentence": ("source", "target", "relation"),
}


@dataclass(frozen=True)
class PromptSet:
    """All templates one run uses; replace fields (``load_prompts``) to customise."""
    extract_graph: str
    """Text-to-graph extraction; placeholder ``{input_text}``."""
    continue_extraction: str
    """Gleaning: asks the model to continue an extraction that lacked the terminator."""
    query_graph: str
    """Query-to-graph extraction with an UNK target; placeholder ``{user_query}``."""
    answer_inference: str
    """Answer from the matched subgraph; placeholders ``{relations}``, ``{question}``."""
    relation_sentence: str
    """One sentence per matched edge; placeholders ``{source}``, ``{target}``, ``{relation}``."""

    @property
    def fingerprint(self) -> str:
        """Short hash of the templates, so caches keyed on it expire when a prompt changes."""
        blob = "\x00".join(getattr(self, f.name) for f in dataclasses.fields(self))
        return hashlib.sha256(blob.encode()).hexdigest()[:10]


@lru_cache(maxsize=1)
def default_prompts() -> PromptSet:
    """The bundled templates."""
    folder = resources.files(__package__)
    return PromptSet(**{name: folder.joinpath(f"{name}.txt").read_text(encoding="utf-8").strip()
                        for name in _PLACEHOLDERS})


def load_prompts(overrides: Mapping[str, str] | None = None) -> PromptSet:
    """Bundled templates with some replaced; each override must keep its placeholders."""
    base = default_prompts()
    if not overrides:
        return base
    unknown = set(overrides) - set(_PLACEHOLDERS)
    if unknown:
        raise SgragError(f"unknown prompt name(s) {sorted(unknown)}; known: {sorted(_PLACEHOLDERS)}")
    for name, text in overrides.items():
        missing = [p for p in _PLACEHOLDERS[name] if "{" + p + "}" not in text]
        if missing:
            raise SgragError(f"prompt {name!r} must contain the placeholder(s) "
                             + ", ".join("{" + p + "}" for p in missing))
    return dataclasses.replace(base, **dict(overrides))


def extraction_messages(prompts: PromptSet, text: str) -> list[Message]:
    """Chat messages asking for the graph of one chunk of text."""
    return [{"role": "user", "content": prompts.extract_graph.format(input_text=text)}]


def continuation_messages(prompts: PromptSet, text: str, so_far: str) -> list[Message]:
    """Messages for one gleaning round: the original request, the cut-off answer, 'continue'."""
    return extraction_messages(prompts, text) + [
        {"role": "assistant", "content": so_far},
        {"role": "user", "content": prompts.continue_extraction},
    ]


def query_graph_messages(prompts: PromptSet, question: str) -> list[Message]:
    """Chat messages asking for the query graph (UNK target) of a question."""
    return [{"role": "user", "content": prompts.query_graph.format(user_query=question)}]


def relation_paragraph(prompts: PromptSet, relations: Iterable[tuple[str, str, str]]) -> str:
    """"Node X is related to Node Y via: r." for each (source label, target label, relation)."""
    lines = dict.fromkeys(prompts.relation_sentence.format(source=s, target=t, relation=r.rstrip("."))
                          for s, t, r in relations)
    return "\n".join(lines)


def answer_messages(prompts: PromptSet, relations: Iterable[tuple[str, str, str]],
                    question: str) -> list[Message]:
    """Chat messages asking for the answer from the matched subgraph's relations."""
    return render_answer_prompt(relation_paragraph(prompts, relations), question, prompts)


def render_answer_prompt(paragraph: str, question: str, prompts: PromptSet | None = None) -> list[Message]:
    """Chat messages asking for the answer, given an already built relation paragraph."""
    content = (prompts or default_prompts()).answer_inference.format(relations=paragraph, question=question)
    return [{"role": "user", "content": content}]


__all__ = ["COMPLETE", "UNABLE", "Message", "PromptSet", "answer_messages", "continuation_messages",
           "default_prompts", "extraction_messages", "load_prompts", "query_graph_messages",
           "relation_paragraph", "render_answer_prompt"]
