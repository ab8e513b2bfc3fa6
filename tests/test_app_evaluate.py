"""Evaluate page: run a CSV in the background, summary metrics and charts, drill-down into a trace."""
import csv
import json

from app_support import built_template, built_ws, make_app  # noqa: F401 (fixtures)
from app_support import Q_DR, Q_XSS, assert_clean, click, make_workspace, texts, wait_job

from sgrag_app import state as K
from sgrag_app.runtime import DEMO_QUESTIONS

PAGE = "pages/evaluate.py"
CSV = f'query,answer\n"{Q_DR}",Dominican Republic\n"{Q_XSS}",Haiti\n'.encode()


def run_uploaded(at, ws, oracle: bytes | None = None):
    """Upload CSV (and an oracle CSV), run the evaluation, wait for it, redraw the page."""
    assert_clean(at)
    at.radio(key=K.EVAL_SOURCE).set_value("Upload a CSV")
    at.run()
    at.file_uploader(key=K.EVAL_UPLOAD).set_value(("q.csv", CSV, "text/csv"))
    if oracle:
        at.file_uploader(key=K.EVAL_ORACLE).set_value(("oracle.csv", oracle, "text/csv"))
    at.run()
    click(at, "Run evaluation")
    at.run()
    job = wait_job("eval", ws)
    assert job.status == "done", job.error
    at.run()
    assert_clean(at)
    return at


def test_upload_run_and_drill_down(built_ws, make_app):
    at = run_uploaded(make_app(built_ws, PAGE), built_ws)
    assert "Results over 2 questions" in texts(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Hit@1"] == "0.500"
    rows = at.dataframe[0].value
    assert list(rows["hit"]) == [True, False]
    assert {"Results (CSV)", "Results (JSONL)"} <= {b.proto.label for b in at.get("download_button")}
    at.toggle(key=K.EVAL_FILTER).set_value(True)
    at.run()
    assert_clean(at)
    assert len(at.get("iframe")) >= 1  # the drill-down trace of the wrong answer
    assert "Gold answer: Haiti" in texts(at)


def test_demo_sample_only_on_the_demo_workspace(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    assert_clean(at)
    assert at.radio(key=K.EVAL_SOURCE).options == ["Upload a CSV"]  # its examples are not the demo's


def test_demo_sample_with_limit(built_ws, make_app):
    demo_qs = [r["query"] for r in csv.DictReader(open(DEMO_QUESTIONS, encoding="utf-8"))][:3]
    (built_ws / "examples.json").write_text(json.dumps(demo_qs), encoding="utf-8")  # as create_demo does
    at = make_app(built_ws, PAGE)
    assert at.radio(key=K.EVAL_SOURCE).value == "Demo sample questions"
    at.number_input(key=K.EVAL_LIMIT).set_value(3)
    click(at, "Run evaluation")
    at.run()
    assert wait_job("eval", built_ws).status == "done"
    at.run()
    assert_clean(at)
    assert "Results over 3 questions" in texts(at)


def test_bad_csv_is_a_readable_failure(built_ws, make_app):
    at = make_app(built_ws, PAGE)
    at.radio(key=K.EVAL_SOURCE).set_value("Upload a CSV")
    at.run()
    at.file_uploader(key=K.EVAL_UPLOAD).set_value(("bad.csv", b"question,gold\nx,y\n", "text/csv"))
    at.run()
    click(at, "Run evaluation")
    at.run()
    wait_job("eval", built_ws)
    at.run()
    assert_clean(at)
    assert any("The evaluation failed" in e.value and "query,answer" in e.value for e in at.error)


def test_needs_a_built_index(tmp_path, make_app):
    at = make_app(make_workspace(tmp_path / "ws" / "nb", build=False), PAGE)
    assert_clean(at)
    assert "no built index" in texts(at)


def test_oracle_upload_shows_the_exactness_measures(built_ws, make_app):
    oracle = ("query,answer,named_constraints,exact_set_size,exact_set_size_allrel,others_in_exact_set\n"
              f'"{Q_DR}",Dominican Republic,Santo Domingo | World Bank,1,1,\n'
              f'"{Q_XSS}",Haiti,Atlantis | Pirate League,2,2,Cuba\n').encode()
    at = run_uploaded(make_app(built_ws, PAGE), built_ws, oracle)
    assert "1 determined, 1 ambiguous" in texts(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Hit@1, determined"] == "1.000" and metrics["Hit@1, ambiguous"] == "0.000"
    assert metrics["Gold in the exact set"] == "0.500"  # Haiti is not in Atlantis' and the Pirate League's set
    assert list(at.dataframe[0].value["oracle set"]) == [1, 2]
