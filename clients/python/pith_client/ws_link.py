"""The WebSocket link to ``pith serve``: one frame per text message (Debian's python3-websockets)."""
from __future__ import annotations

from typing import Any, Dict, Optional


async def open_socket(url: str, token: Optional[str], headers: Optional[Dict[str, str]]) -> Any:
    """Opens the WebSocket; a refused upgrade (401 token, 403 origin) raises ConnectionError."""
    try:
        import websockets  # imported here: spawning hosts never need it
    except ImportError as exc:  # pragma: no cover - depends on the system
        raise ConnectionError("connecting to pith serve needs the websockets package (Debian: python3-websockets)") from exc
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    try:
        try:
            from websockets.asyncio.client import connect  # websockets >= 13
            return await connect(url, additional_headers=sent, max_size=None, compression=None)
        except ImportError:
            return await websockets.connect(url, extra_headers=sent, max_size=None, compression=None)
    except websockets.exceptions.InvalidStatusCode as exc:  # websockets < 14
        raise ConnectionError(f"pith serve refused the connection: HTTP {exc.status_code}") from exc
    except getattr(websockets.exceptions, "InvalidStatus", OSError) as exc:  # websockets >= 14
        raise ConnectionError(f"pith serve refused the connection: HTTP {exc.response.status_code}") from exc
