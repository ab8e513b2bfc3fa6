"""Bounded reading of untrusted input: size, decompressed size, line length and JSON depth.

Every check raises InputFormatError naming the file, the limit (``limits.<name>`` in the
workspace config.json) and how far over it the input is, so a hostile or accidental file
is refused in seconds with bounded memory instead of crashing or running for hours.
"""
from __future__ import annotations

import gzip
import io
import json
import os
import re
import zlib
from pathlib import Path
from typing import BinaryIO, Iterator

import numpy as np

from ..config import LimitsConfig
from ..errors import InputFormatError

DECOMPRESS_ERRORS = (OSError, EOFError, zlib.error)
"""What a corrupt .gz raises while being read (BadGzipFile is an OSError)."""


def over_limit(path: str | os.PathLike, line: int | None, what: str, name: str, limit: int) -> InputFormatError:
    """The error for an input beyond ``limits.<name>``, saying how to raise the limit."""
    return InputFormatError(str(path), line, f"{what} exceeds limits.{name} = {limit:,}; if the input is "
                                             f'trusted, raise it in the workspace config.json ("limits" section)')


def check_file_size(path: Path, limits: LimitsConfig) -> int:
    """The file's size in bytes, refused above ``max_file_bytes`` before anything is read."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputFormatError(str(path), None, f"cannot open: {exc.strerror or exc}") from exc
    if not path.is_file():
        raise InputFormatError(str(path), None, "not a regular file")
    if size > limits.max_file_bytes:
        raise over_limit(path, None, f"file size {size:,} bytes", "max_file_bytes", limits.max_file_bytes)
    return size


class _Capped(io.RawIOBase):
    """A read-only stream that refuses to deliver more than ``cap`` bytes (decompression bombs)."""

    def __init__(self, raw: BinaryIO, cap: int, path: Path, name: str, limit: int):
        """``cap``: bytes it delivers at most; ``name``/``limit``: the setting that sets it, for the error."""
        self.raw, self.cap, self.path, self.name, self.limit, self.seen = raw, cap, path, name, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        n = self.raw.readinto(buf)
        self.seen += n or 0
        if self.seen > self.cap:
            what = f"decompressed size (more than {self.cap:,} bytes" + (
                f", {self.limit}x the file)" if self.name == "max_gzip_ratio" else ")")
            raise over_limit(self.path, None, what, self.name, self.limit)
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()


def open_binary(path: Path, limits: LimitsConfig, streamed: bool) -> BinaryIO:
    """The file's bytes (decompressed when it ends in .gz), capped as it is read.

    ``streamed`` content (read line by line) may reach ``max_stream_bytes``; content parsed
    as a whole may reach ``max_parse_bytes``.
    """
    size = check_file_size(path, limits)
    name = "max_stream_bytes" if streamed else "max_parse_bytes"
    cap = limit = getattr(limits, name)
    gz = path.suffix == ".gz"
    if gz and limits.max_gzip_ratio * max(size, 1024) < cap:
        name, limit, cap = "max_gzip_ratio", limits.max_gzip_ratio, limits.max_gzip_ratio * max(size, 1024)
    try:
        raw = gzip.open(path, "rb") if gz else open(path, "rb")
    except OSError as exc:
        raise InputFormatError(str(path), None, f"cannot open: {exc.strerror or exc}") from exc
    return io.BufferedReader(_Capped(raw, cap, path, name, limit))


def read_bytes(path: Path, limits: LimitsConfig) -> bytes:
    """All of a file (decompressed when .gz), at most ``max_parse_bytes``."""
    try:
        with open_binary(path, limits, streamed=False) as fh:
            return fh.read()
    except DECOMPRESS_ERRORS as exc:
        raise InputFormatError(str(path), None, f"unreadable: {exc}") from exc


def bounded_lines(fh: BinaryIO, path: Path, limits: LimitsConfig, block: int = 1 << 20) -> Iterator[tuple[int, str]]:
    """(line number, line) of the non-blank lines of a UTF-8 byte stream, read a block at a time (lines are
    split in C, so a stream of a billion blank lines costs seconds, not minutes); a line longer than
    ``max_line_chars`` is refused unread."""
    import codecs
    cap = limits.max_line_chars
    decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
    lineno, rest = 0, ""
    while True:
        data = fh.read(block)
        text = rest + decoder.decode(data, final=not data)
        if data and text.isspace():  # a blank block is counted, not split (a stream of newlines)
            lineno += text.count("\n")
            rest = ""
            continue
        lines = text.split("\n")
        rest = lines.pop() if data else ""
        if len(rest) > cap:
            raise over_limit(path, lineno + len(lines) + 1, "line length", "max_line_chars", cap)
        for i, line in enumerate(lines, start=lineno + 1):
            if len(line) > cap + 1:
                raise over_limit(path, i, "line length", "max_line_chars", cap)
            if line and not line.isspace():
                yield i, line
        lineno += len(lines)
        if not data:
            if rest and not rest.isspace():
                yield lineno + 1, rest
            return


def check_text(text: str, path: str | os.PathLike, limits: LimitsConfig) -> None:
    """Refuse a document text beyond ``max_document_chars``, with a line beyond ``max_line_chars``, or
    holding an unpaired surrogate."""
    check_unicode(text, path)
    if len(text) > limits.max_document_chars:
        raise over_limit(path, None, f"document text of {len(text):,} characters", "max_document_chars",
                         limits.max_document_chars)
    cap = limits.max_line_chars
    if len(text) > cap:  # the split is bounded: the text is at most max_document_chars
        lengths = [len(line) for line in text.split("\n")]
        longest = max(range(len(lengths)), key=lengths.__getitem__)
        if lengths[longest] > cap:
            raise over_limit(path, longest + 1, f"line length {lengths[longest]:,}", "max_line_chars", cap)


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """Deepest nesting of arrays/objects in JSON ``text`` (brackets inside strings ignored).

    Computed without recursion (a running sum over the brackets), so a 10,000-deep
    document costs microseconds instead of a RecursionError.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1).astype(np.int32)
    return int(np.cumsum(steps).max())


def check_json_depth(text: str, path: str | os.PathLike, limits: LimitsConfig) -> None:
    depth = json_depth(text)
    if depth > limits.max_json_depth:
        raise over_limit(path, None, f"JSON nesting depth {depth:,}", "max_json_depth", limits.max_json_depth)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_INT_DIGITS = 4300  # Python refuses to convert longer digit strings to int (CVE-2020-10735)


def _int_or_digits(digits: str) -> int | str:
    return int(digits) if len(digits) < MAX_INT_DIGITS else digits


def json_loads(text: str):
    """``json.loads`` for untrusted text: an integer too long to convert stays its digits (a string), so a
    5,000-digit id is an id, not a crash."""
    return json.loads(text, parse_int=_int_or_digits)


def check_unicode(text: str, path: str | os.PathLike, what: str = "text", line: int | None = None,
                  locate: bool = True) -> None:
    """Refuse text holding an unpaired surrogate ("\\ud800" in JSON): no UTF-8 file can store it. The error
    names ``line``, or (``locate``) the line of ``text`` the surrogate is on."""
    m = _LONE_SURROGATE.search(text)
    if m:
        at = text.count("\n", 0, m.start()) + 1 if locate and line is None else line
        raise InputFormatError(str(path), at, f"{what} holds an unpaired surrogate (U+{ord(m.group(0)):04X}), "
                                              "which is not text")


def longest_line_bytes(data: bytes) -> int:
    """The longest line of raw bytes (counted without decoding, so a huge one-line file costs one pass)."""
    if not data:
        return 0
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    bounds = np.concatenate(([-1], ends, [len(data)]))
    return int(np.diff(bounds).max()) - 1


XML_ENCODINGS = frozenset({"utf-8", "utf8", "utf-16", "utf16", "us-ascii", "ascii", "iso-8859-1", "latin-1",
                           "latin1", "windows-1252", "cp1252"})
_XML_DECLARATION = re.compile(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([^\"']{1,40})[\"']")


def check_xml_encoding(data: bytes, path: str | os.PathLike) -> None:
    """Refuse an XML declaration naming an encoding outside ``XML_ENCODINGS`` (an unknown codec would crash
    the parser; an exotic one is a way to smuggle text past checks)."""
    m = _XML_DECLARATION.match(data[:256].lstrip(b"\xef\xbb\xbf"))
    if m and m.group(1).decode("ascii", "replace").lower() not in XML_ENCODINGS:
        raise InputFormatError(str(path), 1, f"unsupported XML encoding {m.group(1).decode('ascii', 'replace')!r} "
                                             f"(supported: {', '.join(sorted(XML_ENCODINGS))})")
