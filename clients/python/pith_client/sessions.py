"""Session commands of issue 19: discovery, the tree, open/delete."""
from __future__ import annotations

from typing import Any, Dict, Optional


class SessionsMixin:
    async def request(self, command: str, /, **params: Any) -> Any:  # provided by PithClient
        raise NotImplementedError

    async def list_sessions(
        self,
        cwd: Optional[str] = None,
        all: Optional[bool] = None,  # noqa: A002 - the wire name
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        query: Optional[str] = None,
    ) -> Dict[str, Any]:
        """One page of session files, newest first (``nextCursor`` when there are more)."""
        return await self.request("list_sessions", cwd=cwd, all=all, limit=limit, cursor=cursor, query=query)

    async def get_entries(self, since: Optional[str] = None) -> Dict[str, Any]:
        return await self.request("get_entries", since=since)

    async def get_tree(self) -> Dict[str, Any]:
        return await self.request("get_tree")

    async def open_session(self, session_dir: str) -> Dict[str, Any]:
        return await self.request("open_session", sessionDir=session_dir)

    async def delete_session(self, session_path: str) -> Dict[str, Any]:
        return await self.request("delete_session", sessionPath=session_path)
