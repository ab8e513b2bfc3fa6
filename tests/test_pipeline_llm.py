"""The LLM paths of ask() against a local OpenAI-compatible server: query graph and answer."""
from openai_stub import Fault, silent_server, stub_server  # noqa: F401  (fixtures)

from sgrag import Engine
from sgrag.config import LLMConfig
from sgrag.llm import make_llm

Q = "Which country is a member of the United Nations and won medals at the 2012 Summer Olympics and contains Paris?"


def engine_with(stub, olympics_ws, answer_mode="offline", query_mode="offline"):
    cfg = Engine.open(olympics_ws).config
    cfg.answer.mode, cfg.query.mode = answer_mode, query_mode
    llm = make_llm(LLMConfig(base_url=stub.url, model="stub", max_retries=0, timeout_s=5), api_key="sk-test")
    return Engine.open(olympics_ws, config=cfg, llm=llm)


def test_llm_answer_uses_the_papers_prompt_and_must_name_a_candidate(stub_server, olympics_ws):
    e = engine_with(stub_server, olympics_ws, answer_mode="llm")
    stub_server.push("France")
    trace = e.ask(Q)
    assert trace.answer.text == "France" and trace.answer.mode == "llm"
    prompt = stub_server.requests[-1]["body"]["messages"][0]["content"]
    assert "is related to" in prompt and Q in prompt and "Unable to determine" in prompt
    stub_server.push("Atlantis")  # not a candidate entity: the offline answer stands
    trace = e.ask(Q)
    assert trace.answer.mode == "llm->offline" and trace.answer.text == "France"
    assert any("not one of the candidate" in n for n in trace.notes)


def test_llm_answer_endpoint_failure_keeps_offline_answer(stub_server, olympics_ws):
    e = engine_with(stub_server, olympics_ws, answer_mode="llm")
    stub_server.push(Fault(status=500))
    trace = e.ask(Q)
    assert trace.answer.text == "France" and trace.answer.mode == "llm->offline"


def test_llm_query_graph_is_normalised_to_graph_entities(stub_server, olympics_ws):
    e = engine_with(stub_server, olympics_ws, query_mode="llm")
    stub_server.push("(q0<|>UNK<|>the country)#(q1<|>united nations<|>)#(q2<|>2012 Summer Olympics<|>)#"
                     "(e1<|>q0<|>q1<|>)#(e2<|>q0<|>q2<|>)#<|COMPLETE|>")
    trace = e.ask("Which country is in the UN and got medals in 2012?")
    assert trace.query_graph.source == "llm"
    assert {n.label for n in trace.query_graph.constraints} == {"United Nations", "2012 Summer Olympics"}
    assert trace.exact_count >= 1 and trace.answer.text in {"France", "Italy", "Spain", "United States of America"}


def test_malformed_llm_query_graph_falls_back_to_offline(stub_server, olympics_ws):
    e = engine_with(stub_server, olympics_ws, query_mode="llm")
    stub_server.push("I think the answer is probably France!")
    trace = e.ask(Q)
    assert trace.query_graph.source == "llm->offline"
    assert any("LLM query graph unusable" in n for n in trace.notes)
    assert trace.answer.text == "France"


def test_llm_answer_chooses_within_the_exact_set_and_says_so(stub_server, olympics_ws):
    e = engine_with(stub_server, olympics_ws, answer_mode="llm")
    q = "Which country is a member of the United Nations and won medals at the 2012 Summer Olympics?"
    stub_server.push("Italy")
    trace = e.ask(q)
    a = trace.answer
    assert {r.label for r in a.exact_set} == {"France", "Italy", "Spain", "United States of America"}
    assert a.text == "Italy" and a.mode == "llm" and "Chosen by the LLM among 4" in a.tie_break
    assert any("chose Italy among the 4 entities" in n for n in trace.notes)
    stub_server.push("Germany")  # a UN member without a 2012 medal: outside the exact set, refused
    trace = e.ask(q)
    assert trace.answer.mode == "llm->offline" and trace.answer.text != "Germany"


def test_silent_endpoint_costs_one_question_at_most_the_deadline(silent_server, olympics_ws):
    cfg = Engine.open(olympics_ws).config
    cfg.answer.mode = cfg.query.mode = "llm"
    llm = make_llm(LLMConfig(base_url=silent_server.url, model="stub", timeout_s=0.5, connect_timeout_s=0.5,
                             max_retries=3, deadline_s=1.5, down_for_s=60))
    e = Engine.open(olympics_ws, config=cfg, llm=llm)
    first = e.ask(Q)
    assert first.answer.text == "France" and first.answer.mode == "llm->offline"
    assert any("failed after" in n for n in first.notes), first.notes  # the query-graph call hit the deadline
    assert any("marked down" in n for n in first.notes), first.notes  # the answer call skipped at once
    tried = silent_server.connections
    assert 1 <= tried <= 4
    second = e.ask(Q)
    assert second.answer.text == "France" and any("marked down" in n for n in second.notes)
    assert silent_server.connections == tried  # the second question made no request
    assert first.timings_ms["total"] < 15_000  # sanity bound only (the deadline is 1.5 s)
