"""pith_client: drive the pith coding agent (``pith --mode rpc``) from Python asyncio.

Standard library only, Python >= 3.9.
"""
from .client import PithClient
from .errors import PithClientError, RpcError
from .chunks import ChunkError, FrameReassembler
from .deep_json import build_tree, walk_tree
from .framing import JSON_NULL, LineSplitter, encode_frame, parse_frame
from .host_tools import HostTool, HostToolContext
from .sessions import SessionHandle

__all__ = [
    "PithClient",
    "PithClientError",
    "RpcError",
    "HostTool",
    "HostToolContext",
    "SessionHandle",
    "LineSplitter",
    "encode_frame",
    "parse_frame",
    "JSON_NULL",
    "ChunkError",
    "FrameReassembler",
    "build_tree",
    "walk_tree",
]
