"""The LLM behind a small Protocol, and an OpenAI-compatible client for any such endpoint.

The client adds what every caller needs and the raw ``openai`` client leaves out or hides:
our own retry loop (timeouts, connection errors, 429, 5xx) with exponential backoff inside an
overall deadline per call, a circuit breaker (after a failure the endpoint is marked down for
a while and calls fail at once, so a dead endpoint costs one wait, not one per question), a
response cache on disk (a re-run of an ingest or eval costs no tokens), token usage per
purpose, and a concurrency cap. The API key lives only in memory: it is never logged,
cached, written to the workspace or shown by ``repr``.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Protocol, Sequence

import openai

from .config import LLMConfig, api_key_from_env
from .errors import LLMError
from .fsutil import atomic_write_json, read_json

_EMBED_BATCH = 256
_NO_KEY = "sk-no-key-required"  # the openai client insists on a key; local servers ignore it


class ChatClient(Protocol):
    """What the stages need from an LLM (tests pass a scripted fake or the client below)."""
    model: str
    embedding_model: str

    def complete(self, messages: Sequence[Mapping[str, str]], *, purpose: str) -> str: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class Usage:
    """Token and call counts of one purpose (extract, query_graph, answer, embed, ...)."""
    calls: int = 0
    """Requests that reached the endpoint and succeeded."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    """Answers served from the disk cache (no request made)."""
    retries: int = 0
    """Failed attempts that were retried."""

    def plus(self, **delta: int) -> "Usage":
        return Usage(**{k: getattr(self, k) + delta.get(k, 0) for k in self.__dataclass_fields__})


@dataclass(frozen=True)
class ConnectionCheck:
    """Result of ``test_connection``: ``ok`` and a one-line message for people."""
    ok: bool
    message: str

    def __str__(self) -> str:
        return self.message


class EndpointDown(LLMError):
    """The endpoint failed recently and is marked down: the call was not attempted."""


@dataclass(frozen=True)
class _Down:
    until: float
    reason: str


_down: dict[str, _Down] = {}  # base URL -> why and until when it is marked down (process-wide)
_down_lock = threading.Lock()


def endpoint_down(base_url: str) -> tuple[float, str] | None:
    """(seconds left, reason) while ``base_url`` is marked down, else None."""
    with _down_lock:
        d = _down.get(base_url.rstrip("/"))
    left = d.until - time.monotonic() if d else 0.0
    return (left, d.reason) if left > 0 else None


def reset_endpoint(base_url: str) -> None:
    """Close the breaker of ``base_url``: the next call tries the endpoint again."""
    with _down_lock:
        _down.pop(base_url.rstrip("/"), None)


def _mark_down(base_url: str, seconds: float, reason: str) -> None:
    if seconds > 0:
        with _down_lock:
            _down[base_url] = _Down(time.monotonic() + seconds, reason)


class OpenAICompatibleClient:
    """Chat and embeddings against an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, ...).

    Args:
        base_url: endpoint root, e.g. ``http://127.0.0.1:11434/v1``.
        model: chat model name.
        api_key: secret; kept in memory only.
        cache_dir: directory of the response cache; None disables caching.
        timeout_s / connect_timeout_s: read and connect timeouts of one request.
        deadline_s: budget of one call, retries and backoff included.
        down_for_s: after a failed call the endpoint is marked down this long (0 = never).
        backoff_base_s: first retry waits this long, then 2x, 4x, ...
        sleep: injectable for tests.
    """

    def __init__(self, base_url: str, model: str, *, api_key: str = "",
                 embedding_model: str = "text-embedding-3-small", timeout_s: float = 60.0,
                 connect_timeout_s: float = 5.0, max_retries: int = 2, deadline_s: float = 60.0,
                 down_for_s: float = 60.0, backoff_base_s: float = 0.5, concurrency: int = 4,
                 temperature: float = 0.0, cache_dir: str | os.PathLike | None = None,
                 sleep: Callable[[float], None] = time.sleep):
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.embedding_model = embedding_model
        self.max_retries = max(0, int(max_retries))
        self.timeout_s, self.connect_timeout_s = float(timeout_s), float(connect_timeout_s)
        self.deadline_s, self.down_for_s = float(deadline_s), float(down_for_s)
        self.backoff_base_s = backoff_base_s
        self.temperature = temperature
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self._sleep = sleep
        self._slots = threading.Semaphore(max(1, int(concurrency)))
        self._lock = threading.Lock()
        self._usage: dict[str, Usage] = {}
        # The retry loop is ours (testable, counted), so the SDK must not retry on its own.
        self._client = openai.OpenAI(base_url=self.base_url, api_key=api_key or _NO_KEY,
                                     timeout=self._timeout(self.timeout_s), max_retries=0)

    def __repr__(self) -> str:
        return (f"OpenAICompatibleClient(base_url={self.base_url!r}, model={self.model!r}, "
                f"api_key=***, cache={'on' if self.cache_dir else 'off'})")

    def __reduce__(self):
        raise TypeError("OpenAICompatibleClient holds a secret and cannot be pickled")

    # ---- usage ------------------------------------------------------------------------------
    def _count(self, purpose: str, **delta: int) -> None:
        with self._lock:
            self._usage[purpose] = self._usage.get(purpose, Usage()).plus(**delta)

    def usage(self) -> dict[str, Usage]:
        """Usage so far, per purpose (a snapshot)."""
        with self._lock:
            return dict(self._usage)

    def total_usage(self) -> Usage:
        total = Usage()
        for u in self.usage().values():
            total = total.plus(**{k: getattr(u, k) for k in u.__dataclass_fields__})
        return total

    # ---- cache ------------------------------------------------------------------------------
    def _cache_path(self, messages: Sequence[Mapping[str, str]]) -> Path | None:
        if self.cache_dir is None:
            return None
        blob = json.dumps({"model": self.model, "messages": [dict(m) for m in messages],
                           "temperature": self.temperature}, sort_keys=True, ensure_ascii=False)
        key = hashlib.sha256(blob.encode("utf-8")).hexdigest()
        return self.cache_dir / key[:2] / f"{key}.json"

    # ---- requests ---------------------------------------------------------------------------
    def _timeout(self, read_s: float) -> openai.Timeout:
        return openai.Timeout(read_s, connect=min(self.connect_timeout_s, read_s))

    def down(self) -> tuple[float, str] | None:
        """(seconds left, reason) while this endpoint is marked down, else None."""
        return endpoint_down(self.base_url)

    def _call(self, purpose: str, request: Callable[[openai.Timeout], object], probe: bool = False) -> object:
        """Run ``request(timeout)`` with retries on transient failures, within ``deadline_s``.

        An unreachable or silent endpoint (connection error or timeout after the retries) is
        marked down; while it is down, calls raise ``EndpointDown`` without a request (``probe``
        calls go through). 429/5xx replies come back at once, so they only fail the call.
        Other failures -> LLMError.
        """
        down = None if probe else self.down()
        if down is not None:
            raise EndpointDown(f"{self.base_url} is marked down for another {down[0]:.0f} s after a "
                               f"failure ({down[1]}); {purpose} skipped")
        end = time.monotonic() + self.deadline_s
        last: Exception | None = None
        attempts = 0
        for attempt in range(self.max_retries + 1):
            if attempt:
                wait = self.backoff_base_s * 2 ** (attempt - 1)
                if time.monotonic() + wait >= end:
                    break
                self._count(purpose, retries=1)
                self._sleep(wait)
            left = end - time.monotonic()
            if left <= 0:
                break
            attempts += 1
            try:
                with self._slots:
                    result = request(self._timeout(min(self.timeout_s, left)))
                reset_endpoint(self.base_url)
                return result
            except (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError,
                    openai.InternalServerError) as exc:
                last = exc
            except openai.APIStatusError as exc:
                raise LLMError(f"{self.base_url} rejected the {purpose} request "
                               f"(HTTP {exc.status_code}): {_short(exc)}") from exc
            except (openai.OpenAIError, ValueError) as exc:  # malformed response body
                raise LLMError(f"{self.base_url} returned an unusable {purpose} response: "
                               f"{_short(exc)}") from exc
        reason = f"{type(last).__name__}: {_short(last)}" if last else f"no reply within {self.deadline_s:.0f} s"
        if last is None or isinstance(last, openai.APIConnectionError):  # includes timeouts
            # unreachable or silent: every further call would wait again. (429/5xx answer at once.)
            _mark_down(self.base_url, self.down_for_s, reason)
        raise LLMError(f"{self.base_url}: {purpose} request failed after {attempts} attempt(s) "
                       f"in {self.deadline_s - max(0.0, end - time.monotonic()):.1f} s: {reason}") from last

    def complete(self, messages: Sequence[Mapping[str, str]], *, purpose: str = "chat",
                 use_cache: bool = True, probe: bool = False) -> str:
        """The assistant's reply text to ``messages`` (cached by model, messages, temperature).

        ``probe`` tries the endpoint even while it is marked down (connection tests).
        """
        path = self._cache_path(messages) if use_cache else None
        if path is not None:
            hit = _read_cache(path)
            if hit is not None:
                self._count(purpose, cache_hits=1)
                return hit
        resp = self._call(purpose, lambda t: self._client.chat.completions.create(
            model=self.model, messages=[dict(m) for m in messages], temperature=self.temperature,
            timeout=t), probe)
        try:
            text = resp.choices[0].message.content or ""
        except (AttributeError, IndexError, TypeError) as exc:
            raise LLMError(f"{self.base_url}: {purpose} response has no message") from exc
        usage = getattr(resp, "usage", None)
        self._count(purpose, calls=1, prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                    completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0))
        if path is not None and text:
            atomic_write_json(path, {"model": self.model, "response": text})
        return text

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embedding vectors of ``texts``, in order (batched)."""
        out: list[list[float]] = []
        for start in range(0, len(texts), _EMBED_BATCH):
            batch = list(texts[start:start + _EMBED_BATCH])
            resp = self._call("embed", lambda t, b=batch: self._client.embeddings.create(
                model=self.embedding_model, input=b, timeout=t))
            try:
                rows = sorted(resp.data, key=lambda d: d.index)
                vecs = [list(map(float, d.embedding)) for d in rows]
            except (AttributeError, TypeError, ValueError) as exc:
                raise LLMError(f"{self.base_url}: malformed embeddings response") from exc
            if len(vecs) != len(batch):
                raise LLMError(f"{self.base_url}: asked for {len(batch)} embeddings, got {len(vecs)}")
            usage = getattr(resp, "usage", None)
            self._count("embed", calls=1, prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0))
            out.extend(vecs)
        return out

    def test_connection(self) -> ConnectionCheck:
        """One tiny uncached request; a readable verdict either way (never raises LLMError)."""
        t0 = time.perf_counter()
        try:
            reply = self.complete([{"role": "user", "content": "Reply with the single word OK."}],
                                  purpose="test", use_cache=False, probe=True)
        except LLMError as exc:
            return ConnectionCheck(False, f"Cannot use {self.model} at {self.base_url}: {exc}")
        ms = (time.perf_counter() - t0) * 1000
        return ConnectionCheck(True, f"Connected to {self.base_url} ({self.model}) in {ms:.0f} ms; "
                                     f"it replied {reply.strip()[:40]!r}.")


def _short(exc: BaseException | None) -> str:
    return str(exc).splitlines()[0][:300] if exc is not None and str(exc) else "no detail"


def _read_cache(path: Path) -> str | None:
    try:
        data = read_json(path)
    except (OSError, ValueError):
        return None  # a damaged entry only costs a request
    return data.get("response") if isinstance(data, dict) else None


def make_llm(cfg: LLMConfig, cache_dir: str | os.PathLike | None = None,
             api_key: str | None = None) -> OpenAICompatibleClient | None:
    """The client the config describes, or None when no endpoint is set (offline mode).

    The key comes from ``api_key`` or else the environment (SGRAG_LLM_API_KEY /
    OPENAI_API_KEY); it is never read from or written to a workspace.
    """
    if not cfg.base_url.strip():
        return None
    return OpenAICompatibleClient(cfg.base_url.strip(), cfg.model,
                                  api_key=api_key if api_key is not None else api_key_from_env(),
                                  embedding_model=cfg.embedding_model, timeout_s=cfg.timeout_s,
                                  connect_timeout_s=cfg.connect_timeout_s, max_retries=cfg.max_retries,
                                  deadline_s=cfg.deadline_s, down_for_s=cfg.down_for_s,
                                  concurrency=cfg.concurrency,
                                  temperature=cfg.temperature, cache_dir=cache_dir)
