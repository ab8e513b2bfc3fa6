"""OpenAICompatibleClient against the local stub server: retries, cache, usage, secrecy."""
from __future__ import annotations

import pickle
import time

import pytest
from openai_stub import Fault, silent_server, stub_server  # noqa: F401  (fixtures)

from sgrag.config import LLMConfig
from sgrag.errors import LLMError
from sgrag.llm import EndpointDown, OpenAICompatibleClient, make_llm, reset_endpoint

MSG = [{"role": "user", "content": "hi"}]
SECRET = "sk-test-SECRET-1234567890"


def client(server, tmp_path=None, **kw):
    sleeps: list[float] = []
    kw.setdefault("timeout_s", 2.0)
    c = OpenAICompatibleClient(server.url, "stub-model", api_key=SECRET, backoff_base_s=0.01,
                               cache_dir=tmp_path / "llm" if tmp_path else None,
                               sleep=sleeps.append, **kw)
    return c, sleeps


def test_complete_counts_usage_and_sends_key(stub_server):
    c, _ = client(stub_server)
    stub_server.push("hello there")
    assert c.complete(MSG, purpose="answer") == "hello there"
    u = c.usage()["answer"]
    assert (u.calls, u.prompt_tokens, u.completion_tokens, u.cache_hits) == (1, 10, 5, 0)
    assert stub_server.requests[0]["auth"] == f"Bearer {SECRET}"


@pytest.mark.parametrize("fault", [Fault(status=429), Fault(status=500), Fault(status=503)])
def test_retries_transient_status_with_exponential_backoff(stub_server, fault):
    c, sleeps = client(stub_server, max_retries=3)
    stub_server.push(fault, fault, "finally")
    assert c.complete(MSG, purpose="x") == "finally"
    assert sleeps == [0.01, 0.02]
    assert c.usage()["x"].retries == 2 and c.usage()["x"].calls == 1
    assert stub_server.count("/chat/completions") == 3


def test_retries_timeout(stub_server):
    c, sleeps = client(stub_server, max_retries=1, timeout_s=0.3)
    stub_server.push(Fault(sleep_s=0.8), "after timeout")
    assert c.complete(MSG, purpose="x") == "after timeout"
    assert len(sleeps) == 1


def test_gives_up_after_max_retries(stub_server):
    c, sleeps = client(stub_server, max_retries=2)
    stub_server.push(*[Fault(status=500)] * 3)
    with pytest.raises(LLMError, match="after 3 attempt"):
        c.complete(MSG, purpose="x")
    assert sleeps == [0.01, 0.02]


def test_client_errors_are_not_retried(stub_server):
    c, sleeps = client(stub_server, max_retries=3)
    stub_server.push(Fault(status=401))
    with pytest.raises(LLMError, match="HTTP 401") as info:
        c.complete(MSG, purpose="x")
    assert sleeps == [] and SECRET not in str(info.value)


def test_garbage_body_is_llm_error(stub_server):
    c, _ = client(stub_server, max_retries=0)
    stub_server.push(Fault(garbage=True))
    with pytest.raises(LLMError):
        c.complete(MSG, purpose="x")


def test_cache_hit_makes_no_request_and_hides_key(stub_server, tmp_path):
    c, _ = client(stub_server, tmp_path)
    stub_server.push("cached answer")
    assert c.complete(MSG, purpose="extract") == "cached answer"
    c2, _ = client(stub_server, tmp_path)  # a new process would see the same files
    assert c2.complete(MSG, purpose="extract") == "cached answer"
    assert stub_server.count("/chat/completions") == 1
    assert c2.usage()["extract"].cache_hits == 1 and c2.usage()["extract"].calls == 0
    for f in (tmp_path / "llm").rglob("*"):
        if f.is_file():
            assert SECRET not in f.read_text()
    # a different temperature is a different cache key
    c3, _ = client(stub_server, tmp_path, temperature=0.7)
    stub_server.push("warmer")
    assert c3.complete(MSG, purpose="extract") == "warmer"


def test_repr_and_pickle_never_reveal_key(stub_server):
    c, _ = client(stub_server)
    assert SECRET not in repr(c) and "***" in repr(c)
    with pytest.raises(TypeError):
        pickle.dumps(c)


def test_embed_batches_in_order(stub_server):
    c, _ = client(stub_server)
    vecs = c.embed(["a", "b", "c"])
    assert len(vecs) == 3 and len(vecs[0]) == 8 and vecs[0] != vecs[1]
    assert c.usage()["embed"].calls == 1


def test_concurrent_calls_respect_limit(stub_server):
    import threading
    c, _ = client(stub_server, concurrency=2)
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(c.complete(MSG, purpose="p", use_cache=False)))
               for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["OK"] * 6 and c.usage()["p"].calls == 6


def test_test_connection_messages(stub_server):
    c, _ = client(stub_server, max_retries=0)
    ok = c.test_connection()
    assert ok.ok and "Connected" in str(ok)
    stub_server.push(Fault(status=404))
    bad = c.test_connection()
    assert not bad.ok and "Cannot use" in bad.message


def test_make_llm_offline_and_key_from_env(monkeypatch, stub_server, tmp_path):
    assert make_llm(LLMConfig(base_url="")) is None
    monkeypatch.setenv("SGRAG_LLM_API_KEY", "sk-from-env")
    llm = make_llm(LLMConfig(base_url=stub_server.url, model="m"), cache_dir=tmp_path)
    llm.complete(MSG, purpose="x")
    assert stub_server.requests[-1]["auth"] == "Bearer sk-from-env"
    assert "sk-from-env" not in repr(llm)


def silent_client(server, **kw):
    return OpenAICompatibleClient(server.url, "m", timeout_s=0.3, connect_timeout_s=0.3, max_retries=0,
                                  deadline_s=1.0, backoff_base_s=0.01, **kw)


def test_silent_endpoint_is_marked_down_for_every_client_until_reset(silent_server):
    c = silent_client(silent_server)
    with pytest.raises(LLMError, match="failed after 1 attempt"):
        c.complete(MSG, purpose="x")
    tried = silent_server.connections
    with pytest.raises(EndpointDown, match="marked down"):
        c.complete(MSG, purpose="x")
    with pytest.raises(EndpointDown):  # the breaker belongs to the endpoint, not to one client
        silent_client(silent_server).complete(MSG, purpose="y")
    assert silent_server.connections == tried  # no request while it is down
    reset_endpoint(silent_server.url + "/")
    assert c.down() is None
    with pytest.raises(LLMError, match="failed after"):  # tried again after the reset
        c.complete(MSG, purpose="x")
    assert silent_server.connections == tried + 1


def test_a_successful_probe_closes_the_breaker_and_5xx_does_not_open_it(stub_server):
    c, _ = client(stub_server, max_retries=0)
    stub_server.push(Fault(status=503))
    with pytest.raises(LLMError):
        c.complete(MSG, purpose="x")
    assert c.down() is None  # the endpoint answered (fast): not marked down
    assert c.complete(MSG, purpose="x") == "OK"
    off, _ = client(stub_server, max_retries=0, timeout_s=0.2, down_for_s=0)
    stub_server.push(Fault(sleep_s=0.6))
    with pytest.raises(LLMError):
        off.complete(MSG, purpose="x")
    assert off.down() is None  # down_for_s = 0: breaker off
    stub_server.push(Fault(sleep_s=0.6))
    c2, _ = client(stub_server, max_retries=0, timeout_s=0.2)
    with pytest.raises(LLMError):
        c2.complete(MSG, purpose="x")
    assert c2.down() is not None
    assert c2.test_connection().ok and c2.down() is None  # an explicit test goes through and closes it


def test_silent_endpoint_costs_one_deadline_then_nothing(silent_server):
    c = OpenAICompatibleClient(silent_server.url, "m", timeout_s=0.4, connect_timeout_s=0.4, max_retries=10,
                               deadline_s=1.0, backoff_base_s=0.05)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match="failed after"):
        c.complete(MSG, purpose="answer")
    tried = silent_server.connections
    assert 1 <= tried <= 4  # the deadline, not max_retries (11 attempts), bounded the call
    assert c.down() is not None
    with pytest.raises(EndpointDown):
        c.complete(MSG, purpose="answer")
    assert silent_server.connections == tried
    assert time.monotonic() - t0 < 15  # sanity bound only (the deadline is 1 s)


def test_llm_config_documents_timeouts_and_breaker():
    cfg = LLMConfig.__dataclass_fields__
    assert {"timeout_s", "connect_timeout_s", "max_retries", "deadline_s", "down_for_s"} <= set(cfg)
    c = make_llm(LLMConfig(base_url="http://127.0.0.1:9/v1", deadline_s=7, down_for_s=3, connect_timeout_s=2))
    assert (c.deadline_s, c.down_for_s, c.connect_timeout_s) == (7, 3, 2)
