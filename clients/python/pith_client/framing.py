"""LF-only framing of the agent's stdout (protocol.md §1.3).

Bytes are split on b"\\n" only -- never ``str.splitlines()``, which also splits on U+2028,
U+2029, U+0085, VT, FF and U+001C..U+001E that JSON strings may legally contain raw.
One trailing CR is stripped. Decoding happens per complete line, so a multi-byte UTF-8
character split across two reads is reassembled first (0x0A never occurs inside one).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from .deep_json import loads


class LineSplitter:
    """Accumulates byte chunks and yields complete LF-terminated lines as text."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._scan_from = 0

    def push(self, chunk: bytes) -> List[str]:
        self._buf += chunk
        lines: List[str] = []
        start = 0
        while True:
            nl = self._buf.find(b"\n", max(start, self._scan_from))
            if nl < 0:
                break
            lines.append(_decode(bytes(self._buf[start:nl])))
            start = nl + 1
            self._scan_from = start
        if start:
            del self._buf[:start]
        self._scan_from = len(self._buf)
        return lines

    def end(self) -> Optional[str]:
        """End of stream: the unterminated rest, if any."""
        if not self._buf:
            return None
        rest = _decode(bytes(self._buf))
        self._buf.clear()
        self._scan_from = 0
        return rest


def _decode(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace")
    return text[:-1] if text.endswith("\r") else text


def parse_frame(line: str) -> Optional[Dict[str, Any]]:
    """A frame for a JSON-object line with a string ``type``; None for anything else.

    Hosts skip stdout lines that are not JSON objects (protocol.md §1.2).
    """
    if not line.strip():
        return None
    try:
        value = loads(line)  # json.loads, also for a get_tree answer nested thousands of levels deep
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        return None
    return value


class _JsonNull:
    """Marks a top-level field to be sent as JSON ``null`` (None means: leave the key out)."""

    def __repr__(self) -> str:
        return "JSON_NULL"


JSON_NULL: Any = _JsonNull()


def encode_frame(frame: Dict[str, Any]) -> bytes:
    """One frame as a single LF-terminated line; keys whose value is None are omitted."""
    clean = {k: (None if v is JSON_NULL else v) for k, v in frame.items() if v is not None}
    return (json.dumps(clean, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
