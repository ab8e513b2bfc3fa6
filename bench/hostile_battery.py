"""Issue 26's hostile and large inputs, each run as a real CLI process on a fresh copy of a small built
workspace: exit code, the last stderr line, whether progress was shown, wall time, peak RSS (VmHWM) and whether
the workspace stayed byte-identical after a refusal.

    .venv/bin/python bench/hostile_battery.py --workspace /work/ws/demo --dir /tmp/hostile [--big]

Without ``--big`` the multi-GiB streams and 100,000-paragraph documents are left out (they take minutes to
write). Goals: a refusal exits 2 with one ``error:`` line, under 10 s and 500 MB, the workspace unchanged; a
large valid input either imports with progress on stderr or is refused by a named limit (quick, as above).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WRAPPER = ("import sys\nfrom sgrag.cli import main\nrc = main(sys.argv[1:])\n"
           "hwm = next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
           "sys.stderr.write('\\nmaxrss_kb %s\\n' % hwm)\nsys.exit(rc)")


def digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir")
            for p in sorted(root.rglob("*"))}


def gz_stream(path: Path, block: bytes, total: int) -> None:
    """``total`` bytes of ``block`` repeated, gzip-compressed, written streamed."""
    with gzip.open(path, "wb", compresslevel=6) as fh:
        for _ in range(total // len(block)):
            fh.write(block)


def docx_paragraphs(path: Path, n: int) -> None:
    """A real .docx (python-docx's template) whose body holds ``n`` paragraphs."""
    import io

    import docx
    buf = io.BytesIO()
    docx.Document().save(buf)
    body = "".join(f"<w:p><w:r><w:t>Paragraph {i}: Ada Lovelace met Charles Babbage in London in 1833.</w:t></w:r></w:p>"
                   for i in range(n))
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "word/document.xml":
                head, _, tail = data.decode("utf-8").partition("<w:body>")
                data = (head + "<w:body>" + body + tail[tail.index("<w:sectPr"):]).encode("utf-8")
            zf.writestr(item, data)


def cases(d: Path, big: bool) -> list[tuple[str, list[str], str]]:
    """(name, CLI args after -w WS, expected outcome: "refuse" or "import")."""
    out: list[tuple[str, list[str], str]] = []

    def f(name: str, data: bytes | str) -> str:
        p = d / name
        p.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
        return str(p)

    def kg(name, flag, data, expect):
        out.append((name, ["import-kg", flag, f(name, data)], expect))

    def doc(name, data, expect):
        out.append((name, ["ingest", "--no-build", f(name, data)], expect))

    big_int = "7" * 5000
    kg("evil_encoding.graphml", "--graphml", '<?xml version="1.0" encoding="x-evil-7"?><graphml><graph>'
       '<node id="a"/></graph></graphml>', "refuse")
    kg("utf7_encoding.graphml", "--graphml", '<?xml version="1.0" encoding="utf-7"?><graphml><graph>'
       '<node id="a"/></graph></graphml>', "refuse")
    kg("empty_encoding.graphml", "--graphml", '<?xml version="1.0" encoding=""?><graphml/>', "refuse")
    kg("bigint_node.json", "--json", '{"nodes": [{"id": %s, "label": "x"}], "edges": []}' % big_int, "import")
    kg("bigint_relation.json", "--json", '{"nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"source": "a", '
       '"target": "b", "relation": %s}]}' % big_int, "import")
    kg("bigint_line.jsonl", "--json", '{"source": %s, "target": "b", "relation": "r"}\n' % big_int, "import")
    kg("bigint_100k.jsonl", "--json", '{"source": %s, "target": "b", "relation": "r"}\n' % ("9" * 100_000), "import")
    kg("bigfloat.json", "--json", '{"nodes": [{"id": 1.%s, "label": "x"}], "edges": []}' % big_int, "import")
    kg("surrogate_label.json", "--json", '{"nodes": [{"id": "a", "label": "x\\ud800"}], "edges": []}', "refuse")
    kg("surrogate_id.jsonl", "--json", '{"source": "\\udfff", "target": "b", "relation": "r"}\n', "refuse")
    kg("surrogate_raw.tsv", "--triples", b"a\tr\t\xed\xa0\x80\n", "refuse")
    kg("surrogate_charref.graphml", "--graphml", '<graphml><graph><node id="&#xD800;"/></graph></graphml>', "refuse")
    kg("indent0.json", "--json", json.dumps({"nodes": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
                                             "edges": [{"source": "a", "target": "b", "relation": "r"}]}, indent=0),
       "import")
    doc("surrogate.json", '{"title": "t", "text": "hello \\ud800 world"}', "refuse")
    doc("surrogate.jsonl", '{"title": "t", "text": "hello \\ud800 world"}\n', "refuse")
    doc("surrogate_pair_reversed.json", '{"title": "t", "text": "\\udc00\\ud800"}', "refuse")
    doc("surrogate_raw.txt", b"hello \xed\xa0\x80 world, this is text", "import")  # not UTF-8: read as cp1252
    doc(os.fsdecode(b"bad_name_\xff\xfe.txt"), "Ada Lovelace was born in London.", "refuse")
    doc("n" * 251 + ".txt", "Ada Lovelace wrote the first program. Charles Babbage designed the engine.", "import")
    doc("brackets_60k.md", "[" * 60_000, "import")
    doc("brackets_200k.md", "[" * 200_000, "import")
    doc("images_100k.md", "![" * 100_000, "import")
    doc("links_nested.md", "[a](" * 50_000, "import")
    doc("bold_100k.md", "**a " * 100_000, "import")
    doc("backticks.md", "`" * 200_000, "refuse")  # no text once the code marks go
    doc("anchors_40k.html", "<html><body>" + "<a href='x'>word " * 40_000 + "</body></html>", "import")
    doc("divs_100k.html", "<div>" * 100_000 + "text", "import")
    doc("one_line_latin1_50mb.txt", ("caf\xe9 " * 10_500_000).encode("latin-1"), "refuse")
    doc("one_line_utf16_20mb.txt", ("word " * 4_000_000).encode("utf-16"), "refuse")
    docx_paragraphs(d / "para_20k.docx", 20_000)
    out.append(("para_20k.docx", ["ingest", "--no-build", str(d / "para_20k.docx")], "import"))
    if big:
        docx_paragraphs(d / "para_100k.docx", 100_000)
        out.append(("para_100k.docx", ["ingest", "--no-build", str(d / "para_100k.docx")], "either"))
        gz_stream(d / "newlines_3gib.tsv.gz", b"\n" * (1 << 20), 3 << 30)
        out.append(("newlines_3gib.tsv.gz", ["import-kg", "--triples", str(d / "newlines_3gib.tsv.gz")], "refuse"))
        rows = b"".join(b"/m/%07d\t/r/%d\t/m/%07d\n" % (i, i % 50, (i * 7919) % 10**6) for i in range(40_000))
        gz_stream(d / "triples_1gib.tsv.gz", rows, 1 << 30)
        out.append(("triples_1gib.tsv.gz", ["import-kg", "--triples", str(d / "triples_1gib.tsv.gz")], "either"))
        n = 2_000_000
        with open(d / "nodes_2m.json", "w") as fh:
            fh.write('{"nodes": [' + ",".join('{"id": "n%d"}' % i for i in range(n)) + '], "edges": []}')
        out.append(("nodes_2m.json", ["import-kg", "--json", str(d / "nodes_2m.json")], "either"))
        with open(d / "nodes_1m.graphml", "w") as fh:
            fh.write("<graphml><graph>" + "".join('<node id="n%d"/>' % i for i in range(1_000_000))
                     + "</graph></graphml>")
        out.append(("nodes_1m.graphml", ["import-kg", "--graphml", str(d / "nodes_1m.graphml")], "either"))
    return out


def run(ws_src: Path, d: Path, name: str, args: list[str], timeout: float) -> dict:
    ws = d / "ws"
    if ws.exists():
        shutil.rmtree(ws)
    shutil.copytree(ws_src, ws)
    before = digest(ws)
    t0 = time.perf_counter()
    try:
        r = subprocess.run([sys.executable, "-c", WRAPPER, args[0], "-w", str(ws), *args[1:]], capture_output=True,
                           text=True, timeout=timeout, cwd=REPO, errors="replace")
        rc, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        rc, err = None, "timeout"
    wall = time.perf_counter() - t0
    rss = int(err.rsplit("maxrss_kb", 1)[1]) if "maxrss_kb" in err else 0
    lines = [ln for ln in err.replace("\r", "\n").splitlines() if ln.strip() and not ln.startswith("maxrss_kb")]
    errors = [ln for ln in lines if ln.startswith("error: ")]
    return {"name": name, "rc": rc, "wall_s": round(wall, 2), "rss_mb": round(rss / 1024), "traceback": "Traceback" in err,
            "error_lines": len(errors), "progress": any(ln.startswith("[") for ln in lines),
            "unchanged": digest(ws) == before, "last": (errors or lines or [""])[-1][:150]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workspace", "-w", required=True, help="a small built workspace (copied for every case)")
    ap.add_argument("--dir", required=True, help="where the inputs are written")
    ap.add_argument("--big", action="store_true", help="add the multi-GiB and million-record inputs")
    ap.add_argument("--only", help="run only the cases whose name contains one of these (comma-separated)")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    d = Path(args.dir)
    d.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    bad = 0
    for name, cli, expect in cases(d, args.big):
        if args.only and not any(part in name for part in args.only.split(",")):
            continue
        r = run(Path(args.workspace), d, name, cli, args.timeout)
        refused = r["rc"] == 2 and r["error_lines"] >= 1 and not r["traceback"] and r["unchanged"]
        ok = (r["rc"] == 0 and not r["traceback"]) if expect == "import" else refused if expect == "refuse" \
            else (r["rc"] == 0 and r["progress"]) or refused
        ok = ok and (r["rc"] == 0 or (r["rss_mb"] < 500 and r["wall_s"] < 10))  # a refusal: fast and small
        bad += not ok
        print(json.dumps({"ok": ok, "expect": expect, **r}, ensure_ascii=False), flush=True)
    print(f"{bad} case(s) off goal")


if __name__ == "__main__":
    main()
