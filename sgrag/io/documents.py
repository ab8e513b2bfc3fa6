"""Document loaders (txt, md, html, pdf, docx, csv, json, jsonl) and overlapping chunking.

A file becomes a ``Document`` whose id is a short sha256 of its bytes, so the same content
under another name is recognised (incremental ingest) and an edited file is a new document.
Loading a folder never stops at a bad file: each unsupported or corrupt file becomes a
``LoadError`` and the rest load.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import unicodedata
import zlib
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable, Iterable

from ..config import LimitsConfig
from ..errors import InputFormatError
from ..types import Progress, ProgressFn, no_progress
from .safe import (check_json_depth, check_text, check_xml_encoding, json_loads, longest_line_bytes, over_limit,
                   read_bytes)

DOC_ID_CHARS = 16


@dataclass(frozen=True)
class Document:
    """One loaded file: text per page (one page unless the format has pages)."""
    doc_id: str
    """Short sha256 of the file bytes (stable across names and machines)."""
    path: str
    title: str
    pages: tuple[str, ...]
    kind: str
    """The loader used: txt, md, html, pdf, docx, csv, json, jsonl."""

    @property
    def text(self) -> str:
        return "\n\n".join(self.pages)


@dataclass(frozen=True)
class Chunk:
    """A piece of one page of a document; offsets are into that page's text."""
    doc_id: str
    chunk_id: str
    """``<doc_id>:p<page>:c<index>``; used as provenance on extracted nodes and edges."""
    text: str
    start: int
    end: int
    page: int
    hash: str
    """sha256 of the text: the extraction cache key (identical text is extracted once)."""


@dataclass(frozen=True)
class LoadError:
    path: str
    reason: str


@dataclass(frozen=True)
class LoadResult:
    documents: tuple[Document, ...]
    errors: tuple[LoadError, ...]


def content_id(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:DOC_ID_CHARS]


# ---- text decoding ------------------------------------------------------------------------
DETECT_SAMPLE = 1 << 20  # bytes an encoding is guessed from


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
        return True
    except (UnicodeDecodeError, LookupError):
        return False


def decode_bytes(data: bytes, path: str | os.PathLike = "") -> str:
    """UTF-8 when valid (the common case, and never misdetected), else the best legacy guess.

    charset-normalizer is unsure on short texts (Latin-1 "Alcázar" scores as cp852
    "Alcßzar"), so among its near-best candidates (plus cp1252) we keep the decoding whose
    non-ASCII characters are most often ordinary upper/lower-case letters.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes
    results = list(from_bytes(data[:DETECT_SAMPLE]))  # a sample tells the encoding; the whole can be 64 MB
    if len(data) > DETECT_SAMPLE:
        results = [r for r in results if _decodes(data, r.encoding)]
    floor = min((r.chaos for r in results), default=0.0) + 0.02
    candidates = [str(r) if len(data) <= DETECT_SAMPLE else data.decode(r.encoding)
                  for r in results if r.chaos <= floor]
    try:
        candidates.append(data.decode("cp1252"))
    except UnicodeDecodeError:
        pass
    if not candidates or "\x00" in candidates[0]:
        raise InputFormatError(str(path), None, "binary data or unknown text encoding")

    def letter_share(text: str) -> float:
        odd = [ch for ch in text if ord(ch) > 127]
        return sum(unicodedata.category(ch) in ("Lu", "Ll") for ch in odd) / len(odd) if odd else 1.0

    return max(candidates, key=letter_share)  # max keeps the first of equals (detector order)


# ---- format readers: bytes -> (title or "", pages) ------------------------------------------
_MD_RULES = [
    (re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE), ""),          # heading marks
    (re.compile(r"!?\[([^\[\]\n]*)\]\([^()\n]*\)"), r"\1"),          # links and images -> text (linear: no nesting)
    (re.compile(r"(\*\*|__)([^\n]{1,1000}?)\1"), r"\2"),              # bold
    (re.compile(r"(?<![\w*])[*_]([^*_\n]+)[*_](?![\w*])"), r"\1"),   # italics
    (re.compile(r"^\s*[-*+]\s+", re.MULTILINE), ""),                # bullets
    (re.compile(r"`([^`]*)`"), r"\1"),                               # inline code
]


_ABBREVIATED_END = re.compile(r"(?:\b[A-Za-z]\.){2,}$|\b(?:Co|Corp|Inc|Ltd|Jr|Sr|Bros|St|Mt)\.$")
"""A title may end in an abbreviation's dot ("Liverpool F.C.", "Solvay S.A.", "Washington, D.C."); a first line
ending in any other dot is prose."""


def _read_txt(data: bytes, path: Path) -> tuple[str, list[str]]:
    text = decode_bytes(data, path)
    first = text.strip().split("\n", 1)[0].strip()
    ends_like_prose = first.endswith((":", ";", ",")) or first.endswith(".") and not _ABBREVIATED_END.search(first)
    title = first if 0 < len(first) <= 80 and not ends_like_prose else ""
    return title, [text]


def _title_from_file_name(path: Path) -> str:
    """A file's name as its title, without a zero-padded sequence number ("02_Liverpool_FC.txt" -> Liverpool FC)."""
    words = path.stem.replace("_", " ").strip()
    return re.sub(r"^0\d*[\s.-]+(?=\S)", "", words) or words


def _read_md(data: bytes, path: Path) -> tuple[str, list[str]]:
    text = decode_bytes(data, path)
    m = re.search(r"^\s{0,3}#\s+(.+)$", text, re.MULTILINE)
    for rule, repl in _MD_RULES:
        text = rule.sub(repl, text)
    return (m.group(1).strip() if m else ""), [text]


class _HTMLText(HTMLParser):
    """Visible text of an HTML page; script/style contents are dropped, never executed."""
    _SKIP = {"script", "style", "noscript", "template", "svg", "head"}
    _BLOCK = {"p", "div", "br", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "section",
              "article", "blockquote", "pre", "table", "ul", "ol", "dd", "dt", "header", "footer"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title_parts: list[str] = []
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in self._SKIP:
            self._skip += 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in self._SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
        elif not self._skip:
            self.parts.append(data)


def _read_html(data: bytes, path: Path) -> tuple[str, list[str]]:
    parser = _HTMLText()
    parser.feed(decode_bytes(data, path))
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.parts).split("\n"))
    text = "\n".join(line for line in lines if line)
    return " ".join("".join(parser.title_parts).split()), [text]


def _read_pdf(data: bytes, path: Path) -> tuple[str, list[str]]:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
        title = (reader.metadata.title if reader.metadata else None) or ""
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise InputFormatError(str(path), None, f"unreadable PDF: {exc}") from exc
    if not any(p.strip() for p in pages):
        raise InputFormatError(str(path), None, "PDF has no extractable text (scanned images?)")
    return str(title), pages


def _read_docx(data: bytes, path: Path) -> tuple[str, list[str]]:
    import zipfile

    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from lxml.etree import XMLSyntaxError
    try:
        d = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, XMLSyntaxError) as exc:
        raise InputFormatError(str(path), None, f"unreadable .docx: {exc}") from exc
    lines = [p.text for p in d.paragraphs if p.text.strip()]
    for table in d.tables:
        for row in table.rows:
            lines.append("; ".join(c.text.strip() for c in row.cells if c.text.strip()))
    return (d.core_properties.title or ""), ["\n".join(lines)]


def _flatten(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        out: list[tuple[str, str]] = []
        for k, v in value.items():
            out += _flatten(v, f"{prefix}.{k}" if prefix else str(k))
        return out
    if isinstance(value, list):
        return [(prefix, ", ".join(str(v) for v in value if v not in (None, "")))]
    return [(prefix, "" if value is None else str(value))]


def record_text(record: Any) -> str:
    """One data row as a sentence-like line: ``key: value; key: value.``"""
    if not isinstance(record, dict):
        return str(record)
    pairs = [f"{k}: {v}" for k, v in _flatten(record) if v.strip()]
    return "; ".join(pairs) + "." if pairs else ""


def _read_csv(data: bytes, path: Path) -> tuple[str, list[str]]:
    text = decode_bytes(data, path)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows = csv.DictReader(io.StringIO(text), dialect=dialect)
    try:
        return "", ["\n".join(filter(None, (record_text(r) for r in rows)))]
    except csv.Error as exc:
        raise InputFormatError(str(path), rows.line_num, f"bad CSV: {exc}") from exc


def _read_json(data: bytes, path: Path) -> tuple[str, list[str]]:
    try:
        obj = json_loads(decode_bytes(data, path))
    except json.JSONDecodeError as exc:
        raise InputFormatError(str(path), exc.lineno, f"bad JSON: {exc.msg}") from exc
    records = obj if isinstance(obj, list) else [obj]
    return "", ["\n".join(filter(None, (record_text(r) for r in records)))]


def _read_jsonl(data: bytes, path: Path) -> tuple[str, list[str]]:
    lines = []
    for n, line in enumerate(decode_bytes(data, path).splitlines(), 1):
        if line.strip():
            try:
                lines.append(record_text(json_loads(line)))
            except json.JSONDecodeError as exc:
                raise InputFormatError(str(path), n, f"bad JSON line: {exc.msg}") from exc
    return "", ["\n".join(filter(None, lines))]


READERS: dict[str, Callable[[bytes, Path], tuple[str, list[str]]]] = {
    ".txt": _read_txt, ".text": _read_txt, ".md": _read_md, ".markdown": _read_md,
    ".html": _read_html, ".htm": _read_html, ".pdf": _read_pdf, ".docx": _read_docx,
    ".csv": _read_csv, ".json": _read_json, ".jsonl": _read_jsonl,
}
SUPPORTED = tuple(sorted(READERS))
_KIND_ALIASES = {".htm": "html", ".markdown": "md", ".text": "txt"}


def _precheck(data: bytes, path: Path, limits: LimitsConfig) -> None:
    """Refuse what would make a reader blow up before it runs: deep JSON, .docx bombs."""
    suffix = path.suffix.lower()
    if suffix in (".json", ".jsonl"):
        check_json_depth(decode_bytes(data, path), path, limits)
    elif suffix == ".docx":
        _precheck_docx(data, path, limits)


def _precheck_docx(data: bytes, path: Path, limits: LimitsConfig) -> None:
    """A .docx is a zip of XML parts: refuse parts that inflate beyond ``max_parse_bytes``
    (zipfile never inflates past a member's declared size) and any DTD (Word never writes
    one; entity definitions are how billion-laughs attacks expand)."""
    import zipfile
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            members = zf.infolist()
            total = sum(m.file_size for m in members)
            if total > limits.max_parse_bytes:
                raise over_limit(path, None, f"uncompressed size {total:,} bytes", "max_parse_bytes",
                                 limits.max_parse_bytes)
            for m in members:
                if m.filename.endswith((".xml", ".rels")):
                    with zf.open(m) as fh:
                        xml = fh.read()
                    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
                        raise InputFormatError(str(path), None, f"unsafe .docx: {m.filename} declares XML entities")
                    check_xml_encoding(xml, f"{path}:{m.filename}")
                    if m.filename == "word/document.xml":
                        _precheck_docx_text(xml, path, limits)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError, zlib.error) as exc:
        raise InputFormatError(str(path), None, f"unreadable .docx: {exc}") from exc


_DOCX_TEXT = re.compile(rb"<w:t(?:\s[^>]{0,200})?>([^<]*)</w:t>")  # linear: no nesting, bounded attributes
_XML_ENTITY = re.compile(r"&#?\w{1,10};")


def _precheck_docx_text(xml: bytes, path: Path, limits: LimitsConfig) -> None:
    """Refuse a .docx whose text runs exceed ``max_document_chars`` before python-docx builds its objects
    (100,000 paragraphs took 30 s to parse only to be refused by that limit). Each run is counted without the
    whitespace at its ends and each entity as one character, so the count never exceeds the text the reader
    returns (blank paragraphs are dropped there)."""
    chars = 0
    for m in _DOCX_TEXT.finditer(xml):
        run = m.group(1).decode("utf-8", "replace").strip()
        chars += len(run) - (sum(len(e) - 1 for e in _XML_ENTITY.findall(run)) if "&" in run else 0)
    if chars > limits.max_document_chars:
        raise over_limit(path, None, f"document text of {chars:,} characters", "max_document_chars",
                         limits.max_document_chars)


def load_document(path: str | os.PathLike, limits: LimitsConfig | None = None) -> Document:
    """Load one file within ``limits``; raises InputFormatError (unsupported, too large,
    unreadable, corrupt or empty)."""
    p, limits = Path(path), limits or LimitsConfig()
    reader = READERS.get(p.suffix.lower())
    if reader is None:
        raise InputFormatError(str(p), None, f"unsupported file type {p.suffix or '(none)'}; "
                                             f"supported: {', '.join(SUPPORTED)}")
    try:
        p.name.encode("utf-8")
    except UnicodeEncodeError:
        raise InputFormatError(ascii(str(p)), None, "the file name is not valid UTF-8; rename the file") from None
    data = read_bytes(p, limits)
    # a line over the limit even at four bytes a character is refused before any decoding
    if longest_line_bytes(data) > 4 * limits.max_line_chars and p.suffix.lower() not in (".pdf", ".docx"):
        raise over_limit(p, None, "a line of more than "
                         f"{4 * limits.max_line_chars:,} bytes", "max_line_chars", limits.max_line_chars)
    _precheck(data, p, limits)
    title, pages = reader(data, p)
    pages = [pg.replace("\r\n", "\n").replace("\x00", "").strip() for pg in pages]
    if not any(pages):
        raise InputFormatError(str(p), None, "no text")
    check_text("\n\n".join(pages), p, limits)
    suffix = p.suffix.lower()
    return Document(content_id(data), str(p), title or _title_from_file_name(p), tuple(pages),
                    _KIND_ALIASES.get(suffix, suffix.lstrip(".")))


def iter_files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files named by ``paths``; folders are walked recursively (hidden entries skipped)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file()
                          and not any(part.startswith(".") for part in f.relative_to(p).parts))
        else:
            out.append(p)
    return list(dict.fromkeys(out))


def load_documents(paths: Iterable[str | os.PathLike], limits: LimitsConfig | None = None,
                   progress: ProgressFn = no_progress) -> LoadResult:
    """Load files and folders; each failure is a LoadError, the rest still load.

    A parser failing in a way no reader anticipated (a third-party library's own error)
    is still one file's failure, never the whole batch's. ``progress`` hears each file as it is read (a
    large PDF or .docx takes seconds).
    """
    docs: list[Document] = []
    errors: list[LoadError] = []
    files = iter_files(paths)
    for k, f in enumerate(files):
        progress(Progress("read", k, len(files), f"reading {os.fsencode(f.name).decode('utf-8', 'replace')}"))
        try:
            if not f.exists():
                raise InputFormatError(str(f), None, "no such file")
            docs.append(load_document(f, limits))
        except InputFormatError as exc:
            errors.append(LoadError(str(f), exc.problem))
        except Exception as exc:  # noqa: BLE001 - isolated: reported as this file's failure
            errors.append(LoadError(str(f), f"unreadable ({type(exc).__name__}: {exc})"[:500]))
    if files:
        progress(Progress("read", len(files), len(files), f"{len(docs)} of {len(files)} file(s) read"))
    return LoadResult(tuple(docs), tuple(errors))


# ---- chunking ---------------------------------------------------------------------------
_BREAKS = ("\n\n", "\n", ". ", "! ", "? ", "; ", ", ", " ")


def _cut(text: str, start: int, limit: int) -> int:
    """End of a chunk starting at ``start``: the last natural break before ``limit``."""
    if limit >= len(text):
        return len(text)
    floor = start + (limit - start) // 2  # never shrink a chunk below half size
    for sep in _BREAKS:
        k = text.rfind(sep, floor, limit)
        if k > 0:
            return k + len(sep)
    return limit


def chunk_document(doc: Document, chunk_chars: int = 1200, overlap: int = 200) -> list[Chunk]:
    """Overlapping chunks per page, cut at paragraph, sentence or word boundaries.

    The overlap keeps a sentence that straddles a cut whole in at least one chunk.
    """
    if chunk_chars <= 0:
        raise ValueError("chunk_chars must be positive")
    overlap = max(0, min(overlap, chunk_chars // 2))
    chunks: list[Chunk] = []
    for page_no, page in enumerate(doc.pages):
        start, index = 0, 0
        while start < len(page):
            end = _cut(page, start, start + chunk_chars)
            piece = page[start:end]
            if piece.strip():
                chunks.append(Chunk(doc.doc_id, f"{doc.doc_id}:p{page_no}:c{index}", piece.strip(),
                                    start, end, page_no, hashlib.sha256(piece.strip().encode()).hexdigest()))
                index += 1
            if end >= len(page):
                break
            nxt = end - overlap
            if overlap:  # begin the overlap at a word boundary
                space = page.find(" ", nxt, end)
                nxt = space + 1 if space >= 0 else nxt
            start = max(nxt, start + 1)
    return chunks


# ---- tables -----------------------------------------------------------------------------
MAX_TABLE_ROWS = 5000
"""Rows read per table (a bigger table is cut: the rest is still in the text)."""


@dataclass(frozen=True)
class Table:
    """One table of a document: its header row and data rows, cell text only."""
    index: int
    """Position among the document's tables (0-based): the provenance of its rows."""
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class _HTMLTables(HTMLParser):
    """Cells of the outermost tables of an HTML page (a nested table's cells join its cell)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self._depth = 0
        self._skip = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _HTMLText._SKIP:
            self._skip += 1
        elif tag == "table":
            self._depth += 1
            if self._depth == 1:
                self.tables.append([])
        elif self._depth == 1 and tag == "tr" and len(self.tables[-1]) < MAX_TABLE_ROWS + 1:
            self.tables[-1].append([])
        elif self._depth == 1 and tag in ("td", "th") and self.tables[-1]:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _HTMLText._SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "table":
            self._depth = max(0, self._depth - 1)
        elif self._depth == 1 and tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._skip:
            self._cell.append(data)


def _as_table(index: int, rows: list[list[str]]) -> Table | None:
    """The first row is the header; a table needs one data row and two columns."""
    rows = [r for r in rows if any(c.strip() for c in r)]
    if len(rows) < 2 or len(rows[0]) < 2:
        return None
    return Table(index, tuple(rows[0]), tuple(tuple(r) for r in rows[1:MAX_TABLE_ROWS + 1]))


def read_tables(path: str | os.PathLike) -> list[Table]:
    """The tables of an HTML or DOCX file, header row first ([] for other formats).

    CSV, JSON and JSONL files are tables already: their loaders write one ``key: value;``
    line per row, which the extractor reads the same way.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".html", ".htm", ".docx"):
        return []
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputFormatError(str(p), None, f"cannot read: {exc.strerror or exc}") from exc
    if suffix == ".docx":
        import zipfile

        import docx
        from docx.opc.exceptions import PackageNotFoundError
        try:
            found = [[[c.text.strip() for c in row.cells] for row in t.rows]
                     for t in docx.Document(io.BytesIO(data)).tables]
        except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
            raise InputFormatError(str(p), None, f"unreadable .docx: {exc}") from exc
    else:
        parser = _HTMLTables()
        parser.feed(decode_bytes(data, p))
        parser.close()
        found = parser.tables
    tables = (_as_table(i, rows) for i, rows in enumerate(found))
    return [t for t in tables if t is not None]
