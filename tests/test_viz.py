"""sgrag.viz and the app's view helpers: what a graph view draws by default, what a click can reveal, escaping,
and the figures the Build/Evaluate pages show (stage times, time left, downloads)."""
from __future__ import annotations

import json
import re
import time

import pandas as pd
from app_support import Q_DR, XSS, built_template, built_ws, small_graph  # noqa: F401 (fixtures)
from hypothesis import given, settings
from hypothesis import strategies as hs

from sgrag import Engine, GraphBuilder, viz
from sgrag.io.kg import read_graphml, read_json
from sgrag.types import Match, Progress
from sgrag_app.jobs import START_STAGE, Job, ProcessJob
from sgrag_app.render import (STARTUP, build_stage_seconds, build_timings, curve_metrics, eval_jsonl,
                              graph_file_bytes, overall_left, public_message, stage_rows, time_left)


def drawn(page: str) -> tuple[list[dict], list[dict]]:
    """The nodes and edges a vis-network page draws when it opens."""
    nodes = json.loads(re.search(r"nodes = new vis\.DataSet\((\[.*?\])\);", page).group(1))
    edges = json.loads(re.search(r"edges = new vis\.DataSet\((\[.*?\])\);", page).group(1))
    return nodes, edges


def embedded(page: str) -> dict:
    """What a click can reveal: the data the page carries for its panel and "expand"."""
    return json.loads(re.search(r"var SG = (\{.*?\});\n", page).group(1))


def star(n: int) -> "object":
    b = GraphBuilder()
    b.add_node("hub", "Hub")
    for i in range(n):
        b.add_node(f"l{i}", f"Leaf {i}")
        b.add_edge("hub", f"l{i}", "rel")
    for i in range(5):  # leaves 0-4 are better connected: "expand" adds them first
        b.add_edge(f"l{i}", f"l{(i + 1) % 5}", "peer")
    return b.build()


def test_match_view_draws_the_match_and_keeps_the_neighbourhood_in_reserve(built_ws):
    engine = Engine.open(built_ws)
    trace = engine.ask(Q_DR)
    g = engine.graph
    view = viz.match_view(g, trace.matches, target=trace.query_graph.target)
    labels = {g.labels[v] for v in view["nodes"]}
    assert labels == {"Dominican Republic", "Santo Domingo", "World Bank"}
    assert len(view["edges"]) == 2
    assert {g.labels[v] for v in view["reserve"]} == {"United Nations", "Haiti"}  # the neighbours, not drawn
    assert view["total"] == 5
    page = viz.subgraph_html(g, view["nodes"], view["edges"], highlight_nodes=view["highlight_nodes"],
                             highlight_edges=view["highlight_edges"], role=view["role"], reserve=view["reserve"])
    nodes, edges = drawn(page)
    assert {n["label"] for n in nodes} == labels and len(edges) == 2
    assert all(n["font"]["size"] >= 14 for n in nodes)  # the match reads at a glance
    sg = embedded(page)
    assert sorted(sg["reserve"]) == sorted(map(str, view["reserve"]))
    answer = str(g.index_of["dr"])
    assert sg["info"][answer]["role"] == "the answer" and sg["info"][answer]["degree"] == 3


def test_reserve_is_capped_most_connected_first():
    g = star(100)
    hub = g.index_of["hub"]
    m = Match(binding={"UNK": "hub"}, edges=(), satisfied=(), missing=(), exact=True)
    view = viz.match_view(g, [m], max_nodes=5, target="UNK")
    assert view["nodes"] == [hub] and view["total"] == 101
    assert sorted(g.node_ids[v] for v in view["reserve"]) == [f"l{i}" for i in range(5)]


def test_a_click_on_a_hub_adds_at_most_expand_cap_neighbours_most_connected_first():
    g = star(200)
    hub = g.index_of["hub"]
    sg = embedded(viz.subgraph_html(g, [hub], [], focus=[hub]))
    adj = sg["adj"][str(hub)]
    assert len({u for u, _ in adj}) <= viz.EXPAND_CAP
    first = {g.node_ids[int(u)] for u, _ in adj[:5]}
    assert first == {f"l{i}" for i in range(5)}
    assert len(sg["nodes"]) <= viz.EXPAND_CAP + 1  # the page carries the hub and what a click can add
    assert sg["info"][str(hub)]["degree"] == 200


def test_labels_reach_the_page_escaped():
    g = small_graph()
    x = g.index_of["x"]
    page = viz.subgraph_html(g, range(g.num_nodes), range(g.num_edges), highlight_nodes=[x])
    assert "<img" not in page
    assert embedded(page)["info"][str(x)]["label"] == XSS  # shown as these characters (textContent)
    assert "innerHTML = s" in page and "textContent = info.label" in page


def test_the_query_graph_draws_a_class_words_describing_names_off_it_escaped():
    """"the album produced by <Ivo Lind>": the name hangs off the class word it describes, not off the answer; a
    document's label reaches the page as text."""
    from sgrag.types import UNK, LinkCandidate, Mention, QueryGraph, QueryNode
    q = f"Which label released the album produced by {XSS}?"
    lind = Mention(XSS, q.index(XSS), q.index(XSS) + len(XSS), LinkCandidate("x", XSS, 1.0, "exact"))
    album = QueryNode("q1", "album", "album", 1.0, Mention("album", 30, 35, LinkCandidate("album", "album", 1.0,
                                                                                          "exact")),
                      instances=("Night Songs",), described_by=(lind,))
    qg = QueryGraph(q, (QueryNode("q0", UNK), album), (("q0", "q1"),), "label")
    nodes, edges = viz.query_graph_view(qg)
    assert {(e.src, e.dst) for e in edges} == {("q0", "q1"), ("q1", "q1.0")}
    assert [n.label for n in nodes if n.id == "q1.0"] == [XSS]
    assert "<img" not in viz.query_graph_html(qg)


@settings(max_examples=60, deadline=None)
@given(hs.recursive(hs.text() | hs.integers() | hs.booleans(),
                    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=8), inner, max_size=4),
                    max_leaves=12))
def test_script_json_round_trips_and_never_closes_its_script(value):
    text = viz.script_json(value)
    assert json.loads(text) == value
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text


def test_graph_downloads_round_trip(tmp_path):
    g = small_graph()
    for fmt, read in (("graphml", read_graphml), ("json", read_json)):
        path = tmp_path / f"g.{fmt}"
        path.write_bytes(graph_file_bytes(g, fmt))
        back = read(path)
        assert (back.num_nodes, back.num_edges) == (g.num_nodes, g.num_edges)
        assert sorted(back.labels) == sorted(g.labels)


def test_eval_jsonl_is_one_object_per_question():
    rows = [{"query": "q1", "hit": True, "final": ["A"]}, {"query": "q2 \u2014 x", "hit": False, "final": []}]
    lines = eval_jsonl(rows).decode("utf-8").splitlines()
    assert [json.loads(x) for x in lines] == rows


def test_time_left_never_reads_zero_seconds():
    assert time_left(0.04) == "finishing" and time_left(0.99) == "finishing"
    assert time_left(12) == "about 12 s left"


def test_a_process_job_shows_its_start_before_its_first_stage(tmp_path):
    job = ProcessJob("build", "k", "build", {})
    job.status = "running"
    rows = stage_rows(job)
    assert [r["title"] for r in rows] == ["Starting"] and "loading libraries" in rows[0]["text"]
    job.progress_file.write_text(json.dumps({"gnn": {"stage": "gnn", "done": 2, "total": 10, "started": time.time()}}))
    rows = stage_rows(job)
    assert [r["title"] for r in rows] == ["Starting", "GNN training"] and rows[0]["fraction"] == 1.0


def test_overall_time_left_adds_the_stages_still_to_come():
    job = Job("build", "k")
    job.status = "running"
    job.progress(Progress("embeddings", 10, 10))
    job.progress(Progress("gnn", 5, 10, eta_s=10.0))
    left = overall_left(job, {"embeddings": 3.0, "gnn": 20.0, "paths": 4.0, "evidence": 2.0})
    assert 15.0 < left <= 16.0
    assert overall_left(job, {}) is None  # a first build: no last time to go by


def test_stage_times_add_up_to_the_job_time():
    report = {"timings_s": {"graph": 0.1, "embeddings": 2.0, "gnn": 10.0, "paths_l1": 1.0, "paths_l2": 0.5}}
    secs = build_timings(report, elapsed=24.0)
    assert abs(sum(secs.values()) - 24.0) < 1e-9 and secs[STARTUP] > 10
    assert STARTUP not in build_timings(report)  # a stored report: its own stages only
    assert build_stage_seconds(report) == {"embeddings": 2.0, "gnn": 10.0, "paths": 1.5}


def test_one_point_metrics_draw_no_curve():
    df = pd.DataFrame([{"step": 1.0, "seconds": 3.0, "loss": 0.5}, {"step": 2.0, "loss": 0.4}])
    assert curve_metrics(df) == ["loss"]


def test_error_messages_show_file_names_not_server_paths():
    msg = "/srv/sgrag/workspaces/acme/uploads/eval/q.csv line 1: expected columns query,answer"
    assert public_message(msg) == "q.csv line 1: expected columns query,answer"
    assert public_message("see http://example.org/a/b") == "see http://example.org/a/b"
