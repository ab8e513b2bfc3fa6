"""Chinese works end to end: linking without whitespace, CJK folding, exact multi-constraint answers."""
import pytest

from sgrag import Engine, GraphBuilder
from conftest import build_workspace

COMPLICATION = "疾病/并发症"


def medical_graph():
    b = GraphBuilder()
    nodes = {"n1": "神经血管损伤", "n2": "糖尿病", "n3": "骨质疏松", "c1": "深静脉血栓", "c2": "感染", "c3": "骨折",
             "c4": "急性闭合性跟腱断裂", "c5": "低血糖", "t": "疾病"}
    for nid, label in nodes.items():
        b.add_node(nid, label)
    for c in ("c1", "c2", "c3", "c4"):
        b.add_edge("n1", c, COMPLICATION, "并发症")
    for c in ("c2", "c5"):
        b.add_edge("n2", c, COMPLICATION, "并发症")
    for c in ("c3", "c2"):
        b.add_edge("n3", c, COMPLICATION, "并发症")
    for n in ("n1", "n2", "n3"):
        b.add_edge(n, "t", "类型", "是一种")
    return b.build()


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return Engine.open(build_workspace(tmp_path_factory.mktemp("zh") / "ws", medical_graph()).path)


def test_paper_case_study_question(engine):
    trace = engine.ask("哪种疾病可能同时导致深静脉血栓、急性闭合性跟腱断裂、感染和骨折等并发症？")
    assert {n.label for n in trace.query_graph.constraints} == {"深静脉血栓", "急性闭合性跟腱断裂", "感染", "骨折"}
    assert trace.query_graph.answer_type == "疾病"
    assert trace.answer.text == "神经血管损伤" and trace.answer.exact and trace.exact_count == 1


def test_full_width_and_partial_match(engine):
    trace = engine.ask("哪种疾病同时导致感染（并发症）和低血糖和骨折？")
    assert trace.exact_count == 0
    assert trace.answer.ranked[0].label in {"糖尿病", "骨质疏松"}
    assert trace.answer.relaxed  # says which constraint it could not satisfy
