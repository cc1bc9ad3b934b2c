"""Protocol version 2 on the host side (oh-my-pi's ``rpc_chunk`` framing).

After ``negotiate_protocol 2`` no stdout line exceeds ``maxFrameBytes`` (1 MiB): a larger frame
arrives as consecutive ``rpc_chunk`` lines carrying base64 slices of its UTF-8 JSON, and an
``agent_end`` lists only the messages not already streamed in ``message_end`` frames (with
``messageCount``). ``FrameReassembler`` undoes both, so handlers see version 1 frames.
"""
from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Dict, List, Optional

from .deep_json import loads

MAX_FRAME_BYTES = 1024 * 1024
MAX_REASSEMBLED_FRAME_BYTES = 64 * 1024 * 1024
CHUNK_PAYLOAD_BYTES = 256 * 1024
_MAX_CHUNKS = -(-MAX_REASSEMBLED_FRAME_BYTES // CHUNK_PAYLOAD_BYTES)
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")

Frame = Dict[str, Any]


class ChunkError(ValueError):
    """A malformed or interrupted chunk sequence (the sequence is dropped)."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class FrameReassembler:
    def __init__(self) -> None:
        self._pending: Optional[Dict[str, Any]] = None
        self._streamed: List[Any] = []

    def push(self, frame: Frame) -> Optional[Frame]:
        """The logical frame for one parsed line; None while a chunk sequence is incomplete."""
        try:
            whole = self._chunk(frame)
        except ChunkError:
            self._pending = None
            raise
        if whole is None:
            return None
        kind = whole.get("type")
        if kind == "agent_start":
            self._streamed = []
        elif kind == "message_end" and "message" in whole:
            self._streamed.append(whole["message"])
        elif kind == "agent_end":
            return self._expand(whole)
        return whole

    def _chunk(self, frame: Frame) -> Optional[Frame]:
        if frame.get("type") != "rpc_chunk":
            if self._pending is not None:
                raise ChunkError("rpc chunk sequence interrupted")
            return frame
        chunk_id, index, count, length = frame.get("chunkId"), frame.get("index"), frame.get("count"), frame.get("byteLength")
        ok = (
            isinstance(chunk_id, str) and 0 < len(chunk_id) <= 128
            and _is_int(index) and _is_int(count) and _is_int(length)
            and 0 <= index < count and 2 <= count <= _MAX_CHUNKS
            and MAX_FRAME_BYTES <= length <= MAX_REASSEMBLED_FRAME_BYTES
        )
        if not ok:
            raise ChunkError("invalid rpc chunk metadata")
        data = frame.get("data")
        if not isinstance(data, str) or not data or not _BASE64.match(data):
            raise ChunkError("invalid rpc chunk data")
        try:
            payload = base64.b64decode(data, validate=True)
        except binascii.Error as exc:
            raise ChunkError("invalid rpc chunk data") from exc
        if self._pending is None:
            if index != 0:
                raise ChunkError("rpc chunk sequence must start at index 0")
            self._pending = {"id": chunk_id, "count": count, "length": length, "next": 0, "parts": [], "size": 0}
        p = self._pending
        if p["id"] != chunk_id or p["count"] != count or p["length"] != length or p["next"] != index:
            raise ChunkError("rpc chunk sequence mismatch")
        p["parts"].append(payload)
        p["size"] += len(payload)
        p["next"] += 1
        if p["size"] > length:
            raise ChunkError("rpc chunk sequence exceeds declared length")
        if p["next"] < count:
            return None
        self._pending = None
        if p["size"] != length:
            raise ChunkError("rpc chunk sequence length mismatch")
        try:
            value = loads(b"".join(p["parts"]).decode("utf-8"))
        except ValueError as exc:
            raise ChunkError(f"rpc chunk payload is not JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise ChunkError("rpc frame must be an object")
        return value

    def _expand(self, frame: Frame) -> Frame:
        streamed = self._streamed
        if frame.get("willContinue") is not True:
            self._streamed = []
        count = frame.get("messageCount")
        messages = frame.get("messages")
        if not _is_int(count) or not isinstance(messages, list):
            return frame
        missing = max(0, count - len(messages))
        out = {k: v for k, v in frame.items() if k != "messageCount"}
        out["messages"] = streamed[:missing] + messages
        return out
