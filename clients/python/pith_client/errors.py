"""Typed errors raised by the client."""
from __future__ import annotations

from typing import Optional


class RpcError(Exception):
    """A command was answered with ``success: false``."""

    def __init__(self, error: str, command: str, id: Optional[str] = None) -> None:
        super().__init__(f"{command}: {error}")
        self.error = error
        self.command = command
        self.id = id


class PithClientError(Exception):
    """The agent could not start, exited, or a wait timed out.

    ``code`` is one of ``spawn_failed``, ``exited``, ``ready_timeout``, ``timeout``, ``closed``, ``no_output``.
    """

    def __init__(self, code: str, message: str, stderr: str = "") -> None:
        super().__init__(f"{message}\n{stderr}" if stderr else message)
        self.code = code
        self.stderr = stderr
