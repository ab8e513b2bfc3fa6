"""A fixed corpus of hostile and malformed inputs, generated at test time (nothing binary is
checked in): each case is (name, CLI arguments after the workspace, text expected in the error).

Used by tests/test_hostile_inputs.py; also handy by hand:
``python tests/hostile.py /tmp/corpus`` writes the files and prints the cases.
"""
from __future__ import annotations

import gzip
import io
import json
import sys
import zipfile
from pathlib import Path

DEEP = 10_000


def _gzip_members(block: bytes, count: int) -> bytes:
    """``count`` gzip members of ``block``: a small file that inflates to len(block) * count."""
    member = gzip.compress(block, compresslevel=9)
    return member * count


def _docx(parts: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                    'package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>')
        for name, data in parts.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _inflating_docx(path: Path, size: int) -> None:
    """A .docx whose document.xml inflates to ``size`` bytes (written streamed, ~size/1000 on disk)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as fh:
            fh.write(b'<?xml version="1.0"?><w:document xmlns:w="x"><w:body><w:p><w:r><w:t>')
            block = b"a" * (1 << 20)
            for _ in range(size >> 20):
                fh.write(block)
            fh.write(b"</w:t></w:r></w:p></w:body></w:document>")


BILLION_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                  + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                             for i in range(1, 10))
                  + b']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                    b"<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>")


def build(folder: Path, big: bool = True) -> list[tuple[str, list[str], str]]:
    """Write the corpus into ``folder``; ``big`` adds the memory-bomb cases (about 60 MB on disk)."""
    folder.mkdir(parents=True, exist_ok=True)
    cases: list[tuple[str, list[str], str]] = []

    def file(name: str, data: bytes | str) -> Path:
        p = folder / name
        p.write_bytes(data.encode() if isinstance(data, str) else data)
        return p

    def graph(name: str, flag: str, data: bytes | str, expect: str) -> None:
        cases.append((name, ["import-kg", f"--{flag}", str(file(name, data))], expect))

    def doc(name: str, data: bytes | str, expect: str) -> None:
        cases.append((name, ["ingest", "--no-build", str(file(name, data))], expect))

    # ---- graphs --------------------------------------------------------------------------
    good_gz = gzip.compress(b"head\trelation\ttail\n")
    graph("garbage_after_header.tsv.gz", "triples", good_gz[:-8] + b"\x00garbage" * 64, "unreadable")
    graph("not_gzip.tsv.gz", "triples", b"head\trelation\ttail\na\tb\tc\n", "unreadable")
    graph("truncated.tsv.gz", "triples", gzip.compress(b"a\tr\tb\n" * 1000)[:40], "unreadable")
    graph("two_columns.tsv", "triples", "a\tr\tb\nc\td\n", "expected 3 columns")
    graph("binary.tsv", "triples", bytes(range(256)) * 8, "not UTF-8")
    graph("nul_field.csv", "triples", 'a,"r\x00\nb', "expected 3 columns")
    graph("empty.tsv", "triples", "", "no triples")
    graph("deep.json", "json", "[" * DEEP + "]" * DEEP, "max_json_depth")
    graph("deep_object.json", "json", '{"nodes": ' + '{"a":' * DEEP + "1" + "}" * DEEP + "}", "max_json_depth")
    graph("deep.jsonl", "json", '{"id": "a"}\n' + '{"x": ' + "[" * DEEP + "]" * DEEP + "}\n", "max_json_depth")
    graph("label_object_id_null.json", "json", json.dumps({"nodes": [{"id": None, "label": {"x": 1}}]}),
          'non-null "id"')
    graph("label_object.json", "json", json.dumps({"nodes": [{"id": "b", "label": {"x": 1}}]}),
          '"label" must be a string')
    graph("edge_relation_list.jsonl", "json", '{"source": "a", "target": "b", "relation": ["x"]}\n',
          '"relation" must be a string')
    graph("sources_not_strings.json", "json", json.dumps({"nodes": [{"id": "a", "sources": [1]}]}),
          '"sources" must hold only strings')
    graph("not_object.json", "json", "[1, 2, 3]", 'expected an object with "nodes" and "edges" lists')
    graph("truncated.json", "json", '{"nodes": [{"id": "a"', "invalid JSON")
    graph("nodes_not_list.json", "json", '{"nodes": {"a": 1}}', '"nodes" and "edges" lists')
    graph("laughs.graphml", "graphml", BILLION_LAUGHS.replace(b"w:document", b"graphml"), "invalid GraphML")
    graph("external_entity.graphml", "graphml",
          '<?xml version="1.0"?><!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
          '<graphml><graph><node id="&x;"/></graph></graphml>', "invalid GraphML")
    graph("deep.graphml", "graphml", "<graphml>" + "<g>" * DEEP + "</g>" * DEEP + "</graphml>", "no <graph>")
    graph("wrong_root.graphml", "graphml", "<html/>", "expected <graphml>")
    graph("evil_encoding.graphml", "graphml", '<?xml version="1.0" encoding="x-evil-7"?><graphml><graph>'
          '<node id="a"/></graph></graphml>', "unsupported XML encoding")
    graph("utf7_encoding.graphml", "graphml", '<?xml version="1.0" encoding="utf-7"?><graphml><graph>'
          '<node id="a"/></graph></graphml>', "unsupported XML encoding")
    graph("surrogate_charref.graphml", "graphml", '<graphml><graph><node id="&#xD800;"/></graph></graphml>',
          "invalid GraphML")
    graph("surrogate_label.json", "json", '{"nodes": [{"id": "a", "label": "x\\ud800"}], "edges": []}',
          "unpaired surrogate")
    graph("surrogate_id.jsonl", "json", '{"source": "\\udfff", "target": "b", "relation": "r"}\n',
          "unpaired surrogate")
    graph("missing.tsv", "triples", "", "no triples")
    (folder / "missing.tsv").unlink()
    cases[-1] = (cases[-1][0], cases[-1][1], "cannot open")

    # ---- documents -----------------------------------------------------------------------
    doc("deep.json", "[" * DEEP + "]" * DEEP, "max_json_depth")
    doc("deep_object.json", '{"a":' * DEEP + "1" + "}" * DEEP, "max_json_depth")
    doc("deep.jsonl", "[" * DEEP + "]" * DEEP + "\n", "max_json_depth")
    doc("laughs.docx", _docx({"word/document.xml": BILLION_LAUGHS}), "declares XML entities")
    doc("evil_encoding.docx", _docx({"word/document.xml": b'<?xml version="1.0" encoding="x-evil-7"?><w:document/>'}),
        "unsupported XML encoding")
    doc("surrogate.json", '{"title": "t", "text": "hello \\ud800 world"}', "unpaired surrogate")
    doc("surrogate.jsonl", '{"title": "t", "text": "hello \\ud800 world"}\n', "unpaired surrogate")
    doc("surrogates_reversed.json", '{"title": "t", "text": "\\udc00\\ud800"}', "unpaired surrogate")
    doc("one_line_utf16.txt", ("word " * 250_000).encode("utf-16"), "max_line_chars")
    doc("backticks_only.md", "`" * 200_000, "no text")
    doc("one_line_latin1.txt", ("caf\xe9 " * 1_100_000).encode("latin-1"), "max_line_chars")
    doc("not_a_zip.docx", b"PK\x03\x04 this is not a zip", "unreadable .docx")
    doc("empty_zip.docx", _docx({}), "unreadable .docx")
    doc("broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> garbage", "PDF")
    doc("image.pdf", b"%PDF-1.4\n%%EOF\n", "PDF")
    doc("binary.txt", bytes(range(256)) * 64, "binary data")
    doc("empty.md", "   \n\n", "no text")
    doc("script_only.html", "<html><script>alert(1)</script></html>", "no text")
    doc("photo.jpg", b"\xff\xd8\xff\xe0", "unsupported file type")
    if big:
        graph("line_1gib.tsv.gz", "triples", _gzip_members(b"a" * (1 << 20), 1024), "max_line_chars")
        doc("one_line_50mb.txt", b"word " * (10 << 20), "max_line_chars")  # refused on its raw bytes, before decoding
        _inflating_docx(folder / "inflate_80mb.docx", 80 << 20)
        cases.append(("inflate_80mb.docx", ["ingest", "--no-build", str(folder / "inflate_80mb.docx")],
                      "max_parse_bytes"))
    return cases


if __name__ == "__main__":
    for case in build(Path(sys.argv[1])):
        print(*case, sep="\t")
