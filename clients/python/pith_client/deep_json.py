"""JSON nested deeper than Python's recursion limit, decoded and walked without recursion.

``json.loads`` recurses once per nesting level and raises RecursionError at about 1,000 levels, so
a ``get_tree`` answer for a long linear session (two levels per entry) would be lost. ``loads``
falls back to an explicit-stack decoder for such text; ``build_tree`` nests ``get_entries`` as pith's
``get_tree`` does, and ``walk_tree`` visits a tree of any depth.
"""
from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any, Dict, Iterator, List, Optional, Tuple

_TOKEN = re.compile(r'[ \t\r\n]*(?:([\[\]{},:])|("(?:[^"\\]|\\.)*")|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null))', re.S)
_LITERALS = {"true": True, "false": False, "null": None}
_NO_VALUE = object()


def loads(text: str) -> Any:
    """``json.loads``, also for text nested deeper than the recursion limit."""
    try:
        return json.loads(text)
    except RecursionError:
        return _loads_iteratively(text)


def _loads_iteratively(text: str) -> Any:
    stack: List[Any] = []  # open containers
    keys: List[Optional[str]] = []  # the key awaiting its value, per open container
    root: Any = _NO_VALUE
    expect = "value"  # value | value_or_close | key | key_or_close | colon | comma_or_close
    pos, end = 0, len(text)

    def put(value: Any) -> None:
        nonlocal root
        if not stack:
            root = value
        elif isinstance(stack[-1], list):
            stack[-1].append(value)
        else:
            stack[-1][keys[-1]] = value

    while True:
        m = _TOKEN.match(text, pos)
        if m is None:
            if text[pos:].strip() == "" and root is not _NO_VALUE and not stack:
                return root
            raise ValueError(f"invalid JSON at offset {pos}")
        pos = m.end()
        punct, string, number, literal = m.groups()
        if root is not _NO_VALUE and not stack:
            raise ValueError(f"extra data at offset {m.start()}")
        if expect in ("key", "key_or_close") and string is not None:
            keys[-1] = json.loads(string)
            expect = "colon"
        elif expect == "colon" and punct == ":":
            expect = "value"
        elif expect == "comma_or_close" and punct == ",":
            expect = "key" if isinstance(stack[-1], dict) else "value"
        elif (expect == "comma_or_close" or expect.endswith("_or_close")) and punct in ("]", "}") and (punct == "]") == isinstance(stack[-1], list):
            value = stack.pop()
            keys.pop()
            put(value)
            expect = "comma_or_close"
        elif expect.startswith("value") and punct in ("[", "{"):
            stack.append([] if punct == "[" else {})
            keys.append(None)
            expect = "value_or_close" if punct == "[" else "key_or_close"
        elif expect.startswith("value") and (string is not None or number is not None or literal is not None):
            put(json.loads(string or number) if literal is None else _LITERALS[literal])
            expect = "comma_or_close"
        else:
            raise ValueError(f"unexpected {m.group().strip()!r} at offset {m.start()}")


def _time_ms(entry: Dict[str, Any]) -> float:
    """``Date.parse(entry.timestamp) || 0``, as pith orders siblings."""
    ts = entry.get("timestamp")
    if not isinstance(ts, str):
        return 0
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1000
    except ValueError:
        return 0


def build_tree(entries: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The entries (``get_entries``) nested as pith's ``get_tree`` nests them, without recursion:
    roots are entries without a known parent, siblings are ordered by timestamp, a node carries the
    ``label`` its latest label entry gave it."""
    labels: Dict[str, str] = {}
    for e in entries:
        if e.get("type") == "label" and isinstance(e.get("targetId"), str):
            if e.get("label"):
                labels[e["targetId"]] = e["label"]
            else:
                labels.pop(e["targetId"], None)
    nodes: Dict[str, Dict[str, Any]] = {}
    for e in entries:
        node: Dict[str, Any] = {"entry": e, "children": []}
        if e.get("id") in labels:
            node["label"] = labels[e["id"]]
        nodes[e.get("id")] = node
    roots: List[Dict[str, Any]] = []
    for e in entries:
        node = nodes[e.get("id")]
        parent_id = e.get("parentId")
        parent = None if parent_id is None or parent_id == e.get("id") else nodes.get(parent_id)
        (parent["children"] if parent is not None else roots).append(node)
    for node in nodes.values():
        if len(node["children"]) > 1:
            node["children"].sort(key=lambda n: _time_ms(n["entry"]))
    return roots


def walk_tree(tree: List[Dict[str, Any]]) -> Iterator[Tuple[Dict[str, Any], int]]:
    """Every node of a ``get_tree`` forest as ``(node, depth)``, depth first in order (roots at 1),
    without recursion: a long linear session is one node per level."""
    stack: List[Tuple[Dict[str, Any], int]] = [(n, 1) for n in reversed(tree)]
    while stack:
        node, depth = stack.pop()
        yield node, depth
        stack.extend((c, depth + 1) for c in reversed(node.get("children") or []))
