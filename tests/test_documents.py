"""Document loaders, encoding detection, per-file errors and chunking."""
from __future__ import annotations

from pathlib import Path

import docx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgrag.errors import InputFormatError
from sgrag.io.documents import Document, chunk_document, load_document, load_documents

DOCS = Path(__file__).resolve().parent.parent / "assets" / "docs"


def make_pdf(pages: list[str]) -> bytes:
    """A minimal valid PDF with one text line per page (no external tools needed)."""
    objs = ["<< /Type /Catalog /Pages 2 0 R >>", ""]
    kids = []
    for text in pages:
        content = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
        page_no = len(objs) + 1
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {page_no + 1} 0 R "
                    f"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>")
        objs.append(f"<< /Length {len(content)} >>\nstream\n{content.decode()}\nendstream")
        kids.append(f"{page_no} 0 R")
    objs[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def test_sample_documents_load():
    res = load_documents([DOCS])
    assert res.errors == ()
    by_kind = {d.kind: d for d in res.documents}
    assert set(by_kind) == {"md", "txt", "html"}
    titles = {d.title for d in res.documents}
    assert {"Alcázar de Colón", "Zhang Yimou", "Beijing National Stadium"} <= titles


def test_latin1_text_is_decoded():
    doc = load_document(DOCS / "alcazar_de_colon.txt")
    assert "Alcázar de Colón" in doc.text and "Diego Colón" in doc.text
    assert (DOCS / "alcazar_de_colon.txt").read_bytes().find("á".encode("latin-1")) >= 0


def test_html_drops_script_style_and_decodes_entities():
    doc = load_document(DOCS / "zhang_yimou.html")
    assert "Xi'an" in doc.text and "House of Flying Daggers" in doc.text
    assert "Script text" not in doc.text and "font-family" not in doc.text and "JavaScript" not in doc.text
    assert doc.title == "Zhang Yimou"


def test_markdown_markup_is_stripped():
    doc = load_document(DOCS / "beijing_national_stadium.md")
    assert "**" not in doc.text and not doc.text.startswith("#")
    assert doc.title == "Beijing National Stadium"


def test_doc_id_is_content_hash(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "sub" / "b.txt"
    b.parent.mkdir()
    a.write_text("Same content.")
    b.write_text("Same content.")
    assert load_document(a).doc_id == load_document(b).doc_id
    b.write_text("Other content.")
    assert load_document(a).doc_id != load_document(b).doc_id


def test_pdf_pages_and_docx(tmp_path):
    (tmp_path / "two.pdf").write_bytes(make_pdf(["Paris is in France", "Rome is in Italy"]))
    doc = load_document(tmp_path / "two.pdf")
    assert len(doc.pages) == 2 and "Paris" in doc.pages[0] and "Rome" in doc.pages[1]
    d = docx.Document()
    d.add_paragraph("Marie Curie was born in Warsaw.")
    table = d.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "field", "physics"
    d.save(tmp_path / "curie.docx")
    text = load_document(tmp_path / "curie.docx").text
    assert "born in Warsaw" in text and "field; physics" in text


def test_records_formats(tmp_path):
    (tmp_path / "r.csv").write_text("name,city\nAda,London\nAlan,Wilmslow\n")
    (tmp_path / "r.json").write_text('[{"name": "Ada", "born": {"city": "London", "year": 1815}}]')
    (tmp_path / "r.jsonl").write_text('{"name": "Ada", "tags": ["math", "poetry"]}\n\n{"name": "Alan"}\n')
    assert load_document(tmp_path / "r.csv").text == "name: Ada; city: London.\nname: Alan; city: Wilmslow."
    assert load_document(tmp_path / "r.json").text == "name: Ada; born.city: London; born.year: 1815."
    assert load_document(tmp_path / "r.jsonl").text == "name: Ada; tags: math, poetry.\nname: Alan."


@pytest.mark.parametrize("name,data,problem", [
    ("bad.pdf", b"%PDF-1.4\nthis is not really a pdf", "PDF"),
    ("bad.docx", b"not a zip", ".docx"),
    ("bad.json", b'{"a": ', "bad JSON"),
    ("bad.jsonl", b'{"a": 1}\n{oops}\n', "bad JSON line"),
    ("empty.txt", b"   \n", "no text"),
    ("binary.txt", bytes(range(256)) * 4, "encoding"),
    ("image.png", b"\x89PNG", "unsupported file type"),
])
def test_bad_files_raise_input_format_error(tmp_path, name, data, problem):
    (tmp_path / name).write_bytes(data)
    with pytest.raises(InputFormatError, match=problem):
        load_document(tmp_path / name)


def test_folder_load_continues_past_errors(tmp_path):
    (tmp_path / "ok.txt").write_text("Fine text.")
    (tmp_path / "bad.pdf").write_bytes(b"%PDF-garbage")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "skip.txt").write_text("hidden")
    res = load_documents([tmp_path, tmp_path / "missing.md"])
    assert [Path(d.path).name for d in res.documents] == ["ok.txt"]
    assert {Path(e.path).name for e in res.errors} == {"bad.pdf", "missing.md"}


def _doc(text: str) -> Document:
    return Document("d1", "x.txt", "x", (text,), "txt")


def test_chunks_overlap_and_break_at_sentences():
    text = " ".join(f"Sentence number {i} is here." for i in range(60))
    chunks = chunk_document(_doc(text), chunk_chars=200, overlap=50)
    assert len(chunks) > 5
    for a, b in zip(chunks, chunks[1:]):
        assert b.start < a.end  # overlap
        assert a.text.endswith(".")
    assert chunks[0].chunk_id == "d1:p0:c0" and chunks[0].hash != chunks[1].hash


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1, max_size=3000), st.integers(20, 400), st.integers(0, 200))
def test_chunks_cover_the_page(text, size, overlap):
    page = text.strip() or "x"
    chunks = chunk_document(_doc(page), chunk_chars=size, overlap=overlap)
    covered = set()
    for c in chunks:
        assert page[c.start:c.end].strip() == c.text
        assert c.end - c.start <= size
        covered.update(range(c.start, c.end))
    assert all(i in covered for i, ch in enumerate(page) if not ch.isspace())


def test_title_line_may_end_in_an_abbreviation(tmp_path):
    """A Wikipedia-style title "Liverpool F.C." names the document; a first line of prose does not."""
    (tmp_path / "02_Liverpool_FC.txt").write_text("Liverpool F.C.\n\nLiverpool Football Club is a club based in "
                                                  "Liverpool, England.\n", encoding="utf-8")
    (tmp_path / "007_notes.txt").write_text("The club was founded in 1892.\nIt plays at Anfield.\n", encoding="utf-8")
    (tmp_path / "1984.txt").write_text("The novel was published in 1949.\n", encoding="utf-8")
    titles = {Path(d.path).name: d.title for d in load_documents([tmp_path]).documents}
    assert titles == {"02_Liverpool_FC.txt": "Liverpool F.C.", "007_notes.txt": "notes", "1984.txt": "1984"}
