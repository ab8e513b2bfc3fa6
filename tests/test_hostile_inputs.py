"""Fuzz corpus: hostile and malformed graphs and documents through the CLI.

Every rejected input must end in exit code 2 with one `error: file[:line]: problem` line, no
traceback, a byte-identical workspace (every file hashed before and after) and bounded
memory. The fixed corpus lives in tests/hostile.py; hypothesis varies each format.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

import docx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hostile
from conftest import olympics_graph
from sgrag.cli import main as cli_main
from sgrag.config import LimitsConfig
from sgrag.ingest import ingest
from sgrag.io.safe import bounded_lines
from sgrag.io.documents import load_document
from sgrag.io.kg import read_json, write_graphml, write_json
from sgrag.workspace import Workspace
from test_documents import make_pdf

REPO = Path(__file__).resolve().parent.parent
GIB = 1 << 30


def digest(root: Path) -> dict[str, str]:
    """Every file's sha256 and every directory, relative to ``root``: any write shows up."""
    return {str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir")
            for p in sorted(root.rglob("*"))}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[tuple[str, list[str], str]]:
    return hostile.build(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def graph_ws(tmp_path_factory) -> Path:
    """A workspace holding a source graph (no index: nothing here may build one)."""
    ws = Workspace.create(tmp_path_factory.mktemp("fuzz") / "ws")
    ws.save_source_graph(olympics_graph())
    return ws.path


def run_cli(ws: Path, args: list[str], capsys) -> tuple[int, str]:
    capsys.readouterr()
    rc = cli_main(["-q", args[0], "-w", str(ws), *args[1:]])
    return rc, capsys.readouterr().err


def assert_refused(rc: int, err: str, expect: str = "") -> None:
    assert rc == 2, err
    assert "Traceback" not in err and expect in err, err
    assert any(line.startswith("error: ") and ": " in line[7:] for line in err.splitlines()), err


def test_fixed_corpus_is_refused_cleanly_in_bounded_memory(corpus, graph_ws, capsys):
    assert len(corpus) >= 35
    before = digest(graph_ws)
    for name, args, expect in corpus:
        tracemalloc.start()
        try:
            rc, err = run_cli(graph_ws, args, capsys)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert_refused(rc, err, expect)
        assert digest(graph_ws) == before, f"{name} changed the workspace"
        assert peak < 400 << 20, f"{name}: {peak:,} bytes traced"


def test_refusals_leave_no_new_workspace_behind(corpus, tmp_path, capsys):
    for name, args, _ in corpus:
        rc, err = run_cli(tmp_path / "new", args, capsys)
        assert rc == 2 and not (tmp_path / "new").exists(), (name, err)


# The peak is read from VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a child
# spawned by a large pytest process would report pytest's own peak.
WRAPPER = ("import sys\nfrom sgrag.cli import main\nrc = main(sys.argv[1:])\n"
           "hwm = next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
           "sys.stderr.write('\\nmaxrss_kb %s\\n' % hwm)\n"
           "sys.exit(rc)")


@pytest.mark.parametrize("name", ["line_1gib.tsv.gz", "one_line_50mb.txt", "inflate_80mb.docx", "laughs.docx",
                                  "deep.jsonl", "label_object_id_null.json"])
def test_real_subprocess_refusals_stay_under_1_gib(corpus, tmp_path, name):
    args = next(a for n, a, _ in corpus if n == name)
    ws = tmp_path / "ws"
    Workspace.create(ws).save_source_graph(olympics_graph())
    before = digest(ws)
    r = subprocess.run([sys.executable, "-c", WRAPPER, "-q", args[0], "-w", str(ws), *args[1:]],
                       capture_output=True, text=True, timeout=120, cwd=REPO)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert digest(ws) == before
    rss_kb = int(r.stderr.rsplit("maxrss_kb", 1)[1])
    assert rss_kb * 1024 < GIB, f"{name}: {rss_kb:,} KB resident"


def test_limits_are_configurable_per_workspace(tmp_path, capsys):
    """The message names the limit; raising it in config.json lets the input through."""
    ws = Workspace.create(tmp_path / "ws")
    rows = tmp_path / "t.tsv.gz"
    rows.write_bytes(gzip.compress(b"a\tr\tb\n" * 50_000))  # inflates about 300x: a bomb's ratio
    rc, err = run_cli(ws.path, ["import-kg", "--triples", str(rows)], capsys)
    assert_refused(rc, err, "limits.max_gzip_ratio = 20")
    cfg = ws.config()
    cfg.limits.max_gzip_ratio = 10_000
    cfg.limits.max_stream_bytes = 100_000
    ws.save_config(cfg)
    rc, err = run_cli(ws.path, ["import-kg", "--triples", str(rows)], capsys)
    assert_refused(rc, err, "limits.max_stream_bytes = 100,000")
    cfg.limits.max_stream_bytes = 1_000_000
    ws.save_config(cfg)
    assert run_cli(ws.path, ["import-kg", "--triples", str(rows)], capsys)[0] == 0


def test_a_stream_of_blank_lines_is_counted_not_split_and_refused_by_its_ratio(tmp_path, capsys):
    bomb = tmp_path / "newlines.tsv.gz"
    bomb.write_bytes(gzip.compress(b"\n" * (1 << 20), 9) * 64)  # 64 MiB of newlines in ~70 KB
    rc, err = run_cli(tmp_path / "ws", ["import-kg", "--triples", str(bomb)], capsys)
    assert_refused(rc, err, "limits.max_gzip_ratio")
    assert not (tmp_path / "ws").exists()


def test_bounded_lines_numbers_lines_across_blocks_and_skips_blank_ones(tmp_path):
    data = b"a\tb\tc\n\n\n" * 3000 + "é\tr\tz\n".encode() * 2 + b"\n" * 5000 + b"last\tr\tx"
    got = list(bounded_lines(io.BytesIO(data), tmp_path / "x", LimitsConfig(), block=7))  # splits mid-character
    assert [n for n, _ in got] == [1 + 3 * i for i in range(3000)] + [9001, 9002, 14003]
    assert got[3000][1] == "é\tr\tz" and got[-1][1] == "last\tr\tx"


# ---- hypothesis: variations of every format --------------------------------------------------
def _valid_seeds() -> dict[str, bytes]:
    g = olympics_graph()
    with tempfile.TemporaryDirectory() as d:
        write_graphml(g, Path(d) / "g.graphml")
        write_json(g, Path(d) / "g.json")
        graphml, gjson = (Path(d) / "g.graphml").read_bytes(), (Path(d) / "g.json").read_bytes()
    tsv = "".join(f"{s}\t{r}\t{t}\n" for s, t, r, _ in map(g.edge_tuple, range(g.num_edges))).encode()
    jsonl = "".join(json.dumps(n) + "\n" for n in json.loads(gjson)["nodes"]).encode()
    d = docx.Document()
    d.add_paragraph("Marie Curie was born in Warsaw.")
    buf = io.BytesIO()
    d.save(buf)
    return {
        "triples.tsv": tsv, "triples.csv": tsv.replace(b"\t", b","), "triples.tsv.gz": gzip.compress(tsv),
        "graph.graphml": graphml, "graph.json": gjson, "graph.jsonl": jsonl,
        "doc.txt": b"Ada Lovelace was born in London.\n", "doc.md": b"# Ada\n\n**Ada** was born in London.\n",
        "doc.html": b"<html><title>Ada</title><p>Ada was born in <b>London</b>.</p></html>",
        "doc.pdf": make_pdf(["Ada was born in London"]), "doc.docx": buf.getvalue(),
        "doc.csv": b"name,city\nAda,London\n", "doc.json": b'[{"name": "Ada", "city": "London"}]',
        "doc.jsonl": b'{"name": "Ada"}\n',
    }


SEEDS = _valid_seeds()
FLAGS = {"triples.tsv": "--triples", "triples.csv": "--triples", "triples.tsv.gz": "--triples",
         "graph.graphml": "--graphml", "graph.json": "--json", "graph.jsonl": "--json"}


FRAGMENTS = {  # hostile fragments by family; each family is a way a parser has failed somewhere
    "markup": [b"\x00", b"\xff\xfe", b"<!DOCTYPE x [<!ENTITY a 'b'>]>", b"&a;", b'{"id": null}', b'{"label": {}}',
               b"[" * 500, b"\t\t\t", b'"unterminated', b"\n" * 3],
    "encodings": [b'<?xml version="1.0" encoding="x-evil-7"?>', b'<?xml version="1.0" encoding="utf-32"?>',
                  b"\xef\xbb\xbf", b"\xfe\xff\x00a", b"caf\xe9", b"\x81\x8d\x8f\x90\x9d"],
    "numbers": [b"9" * 5000, b"-" + b"1" * 4400, b"1e99999", b"NaN", b"-Infinity", b"0x1F", b"1" * 4299],
    "unicode": [b'"\\ud800"', b'"\\udfff\\ud800"', b"\xc0\xaf", b"\xed\xa0\x80", "\u202e\u200b\ufeff".encode(),
                "\U0001f600".encode(), b"\\u0000"],
    "regex": [b"[" * 5000, b"![" * 3000, b"**" * 3000, b"<a href='x'>" * 2000, b"`" * 3000, b"_" * 4000,
              b"(" * 3000, b"<" * 5000],
    "compression": [b"\x1f\x8b\x08", gzip.compress(b"\n" * 100_000), b"PK\x03\x04", b"%PDF-1.7"],
}


@st.composite
def mutated(draw, seed: bytes) -> bytes:
    """The seed cut, spliced with random bytes or hostile fragments, or wrapped in deep nesting."""
    cut = draw(st.integers(0, len(seed)))
    family = draw(st.sampled_from(sorted(FRAGMENTS)))
    junk = draw(st.one_of(st.binary(max_size=64), st.sampled_from(FRAGMENTS[family])))
    mode = draw(st.sampled_from(["truncate", "splice", "insert", "deep"]))
    if mode == "truncate":
        return seed[:cut]
    if mode == "splice":
        return seed[:cut] + junk + seed[cut + len(junk):]
    if mode == "deep":
        depth = draw(st.integers(90, 3000))
        return b"[" * depth + seed + b"]" * depth
    return seed[:cut] + junk + seed[cut:]


FUZZ_EXAMPLES = int(os.environ.get("SGRAG_FUZZ_EXAMPLES", "25"))  # `make fuzz` raises it


@pytest.mark.parametrize("name", sorted(SEEDS))
@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_inputs_never_crash_or_half_write(name, graph_ws, capsys, data):
    payload = data.draw(mutated(SEEDS[name]), label="payload")
    with tempfile.TemporaryDirectory() as d:
        ws = Path(d) / "ws"
        shutil.copytree(graph_ws, ws)
        f = Path(d) / name
        f.write_bytes(payload)
        args = ["import-kg", FLAGS[name], str(f)] if name in FLAGS else ["ingest", "--no-build", str(f)]
        before = digest(ws)
        rc, err = run_cli(ws, args, capsys)
        assert rc in (0, 2) and "Traceback" not in err, err
        if rc == 2:
            assert_refused(rc, err)
            assert digest(ws) == before


def test_json_and_jsonl_are_told_apart_by_parsing(tmp_path):
    """``json.dump(..., indent=0)`` starts objects at column 0: still one JSON document, not JSONL."""
    g = {"nodes": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
         "edges": [{"source": "a", "target": "b", "relation": "r"}]}
    (tmp_path / "g.json").write_text(json.dumps(g, indent=0))
    (tmp_path / "g.jsonl").write_text("".join(json.dumps(e) + "\n" for e in g["edges"] + g["nodes"]))
    for name in ("g.json", "g.jsonl"):
        graph = read_json(tmp_path / name)
        assert (graph.num_nodes, graph.num_edges, sorted(graph.labels)) == (2, 1, ["A", "B"]), name


@pytest.mark.parametrize("where", ["node", "relation", "line", "long line"])
def test_integers_too_long_for_python_are_kept_as_their_digits(tmp_path, where):
    big = "9" * 100_000 if where == "long line" else "7" * 5000
    text = {"node": '{"nodes": [{"id": %s, "label": "x"}], "edges": []}' % big,
            "long line": '{"source": %s, "target": "b", "relation": "r"}\n' % big,
            "relation": '{"nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"source": "a", "target": "b", '
                        '"relation": %s}]}' % big,
            "line": '{"source": %s, "target": "b", "relation": "r"}\n' % big}[where]
    (tmp_path / "g.json").write_text(text)
    g = read_json(tmp_path / "g.json")
    assert big in g.node_ids + g.relations


@pytest.mark.timeout(120)  # a hang guard, not a speed figure: these were quadratic (minutes) before
@pytest.mark.parametrize("name,text", [("brackets.md", "[" * 200_000), ("images.md", "![" * 100_000),
                                       ("bold.md", "**a " * 100_000), ("links.md", "[a](" * 50_000),
                                       ("anchors.html", "<html><body>" + "<a href='x'>word " * 40_000 + "</body></html>"),
                                       ("divs.html", "<div>" * 100_000 + "text")])
def test_regex_hostile_documents_load(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    doc = load_document(tmp_path / name)
    assert doc.text


def test_a_long_file_name_leaves_nothing_behind_and_ingests(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    name = "n" * 251 + ".txt"  # 255 bytes, the longest most file systems allow
    (folder / name).write_text("Ada Lovelace wrote the first program. Charles Babbage designed the engine.")
    ws = Workspace.create(tmp_path / "ws")
    report = ingest(ws, [folder / name])
    assert not report.failed
    stored = list((ws.docs_dir / "files").rglob("*"))
    assert [p.name for p in stored if p.is_file()] == [name]


@pytest.mark.parametrize("kind", ["json", "graphml"])
def test_whole_file_graph_imports_show_progress_on_the_cli(tmp_path, capsys, monkeypatch, kind):
    """A large GraphML or JSON graph is parsed, read record by record and saved with progress on stderr
    (the 3M-node GraphML took 30 s with none)."""
    import sgrag.io.kg as kg_io
    monkeypatch.setattr(kg_io, "PROGRESS_ROWS", 3)  # small files, the same reports
    g = olympics_graph()
    path = tmp_path / f"g.{kind}"
    (write_json if kind == "json" else write_graphml)(g, path)
    capsys.readouterr()
    assert cli_main(["import-kg", "-w", str(tmp_path / "ws"), f"--{kind}", str(path)]) == 0
    err = capsys.readouterr().err.replace("\r", "\n")
    shown = [line.strip() for line in err.splitlines() if line.strip()]
    assert any(f"MB of {'JSON' if kind == 'json' else 'GraphML'} from g.{kind}" in line for line in shown), shown
    reads = [line for line in shown if f"read from g.{kind}" in line]
    assert len(reads) == (g.num_nodes + g.num_edges) // 3 and reads[0].split("] ")[1].startswith("3 "), reads
    assert shown[-1].endswith(f"graph saved: {g.num_nodes:,} nodes, {g.num_edges:,} edges"), shown


def test_an_ingest_shows_each_file_being_read_before_extraction(tmp_path, capsys):
    """Reading a large PDF or .docx takes seconds: the CLI says which file it is on before the chunks start."""
    for name in ("a.txt", "b.md"):
        (tmp_path / name).write_text("Ada Lovelace was born in London. Charles Babbage designed the engine.")
    capsys.readouterr()
    assert cli_main(["ingest", "--no-build", "-w", str(tmp_path / "ws"), str(tmp_path / "a.txt"),
                     str(tmp_path / "b.md")]) == 0
    shown = [line.strip() for line in capsys.readouterr().err.replace("\r", "\n").splitlines()]
    reads = [line for line in shown if line.startswith("[      read]")]
    assert "reading a.txt" in reads[0] and reads[-1].endswith("2 of 2 file(s) read"), shown
    assert shown.index(reads[-1]) < next(i for i, line in enumerate(shown) if line.startswith("[    chunks]"))


def _docx_of(paragraphs: list[str]) -> bytes:
    d = docx.Document()
    for text in paragraphs:
        d.add_paragraph(text)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def test_a_docx_over_the_text_limit_is_refused_before_python_docx_parses_it(tmp_path, monkeypatch):
    """100,000 paragraphs took 30 s in python-docx only to be refused by max_document_chars: the text runs
    are now counted on the raw XML first (the same refusal in about a second)."""
    path = tmp_path / "long.docx"
    path.write_bytes(_docx_of([f"Paragraph {i}: Ada Lovelace met Charles Babbage." for i in range(300)]))
    monkeypatch.setattr(docx, "Document", lambda *a, **k: pytest.fail("python-docx parsed a refused file"))
    with pytest.raises(Exception, match="max_document_chars = 5,000"):
        load_document(path, LimitsConfig(max_document_chars=5_000))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=40).map(lambda t: "".join(c for c in t if c.isprintable() and
                                                                       not 0xD800 <= ord(c) <= 0xDFFF)),
                min_size=1, max_size=8))
def test_the_docx_text_precount_never_exceeds_the_text_read(paragraphs):
    """The pre-count may only refuse what the reader would refuse: it counts at most the text python-docx
    returns, whatever the characters (multi-byte, &, <, quotes)."""
    from hypothesis import assume

    from sgrag.io.documents import _precheck_docx_text
    assume(any(p.strip() for p in paragraphs))  # (a document of blank paragraphs has no text to compare)
    data = _docx_of(paragraphs)
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "p.docx").write_bytes(data)
        text = load_document(Path(d) / "p.docx").text
        import zipfile
        xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml")
        _precheck_docx_text(xml, Path(d) / "p.docx", LimitsConfig(max_document_chars=len(text)))


def test_a_stream_of_distinct_triples_past_max_edges_is_refused_while_reading(tmp_path, capsys):
    """A 1 GiB stream of distinct triples would hold ~10 GB in the graph builder: it stops at limits.max_edges,
    with the line it reached; repeated triples are one edge and do not count."""
    ws = Workspace.create(tmp_path / "ws")
    cfg = ws.config()
    cfg.limits.max_edges = 1_000
    ws.save_config(cfg)
    repeated = tmp_path / "repeated.tsv"
    repeated.write_bytes(b"".join(b"a%d\tr\tb%d\n" % (i, i) for i in range(900)) * 10)
    assert run_cli(ws.path, ["import-kg", "--triples", str(repeated)], capsys)[0] == 0
    before = digest(ws.path)
    distinct = tmp_path / "distinct.tsv.gz"
    distinct.write_bytes(gzip.compress(b"".join(b"a%d\tr\tb%d\n" % (i, i) for i in range(5_000))))
    rc, err = run_cli(ws.path, ["import-kg", "--triples", str(distinct)], capsys)
    assert_refused(rc, err, "distinct.tsv.gz:1001: the number of distinct edges (more than 1,000) exceeds "
                            "limits.max_edges = 1,000")
    assert digest(ws.path) == before
