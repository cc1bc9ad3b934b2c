"""Protocol version 2, the event filter and message paging against the built dist/cli.js."""
from __future__ import annotations

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from pith_client import HostTool  # noqa: E402
from pith_client.chunks import ChunkError, FrameReassembler  # noqa: E402
from test_client import PithTestCase, by_role, text_of  # noqa: E402

BIG = "y" * (3 * 1024 * 1024)


class ReassemblerTest(unittest.TestCase):
    def test_refuses_a_chunk_without_its_start(self):
        r = FrameReassembler()
        self.assertEqual(r.push({"type": "ready"}), {"type": "ready"})
        bad = {"type": "rpc_chunk", "chunkId": "rpc-1", "index": 1, "count": 5, "byteLength": 1048577, "data": "eHh4"}
        with self.assertRaises(ChunkError):
            r.push(bad)

    def test_restores_agent_end_messages(self):
        r = FrameReassembler()
        r.push({"type": "agent_start"})
        r.push({"type": "message_end", "message": {"role": "user", "n": 1}})
        r.push({"type": "message_end", "message": {"role": "assistant", "n": 2}})
        end = r.push({"type": "agent_end", "messages": [], "messageCount": 2})
        self.assertEqual(end, {"type": "agent_end", "messages": [{"role": "user", "n": 1}, {"role": "assistant", "n": 2}]})


class ProtocolV2Test(PithTestCase):
    async def test_version_2_delivers_version_1_content(self):
        client = await self.start([{"toolCalls": [{"name": "blob_host", "arguments": {}}]}, {"text": "Done."}], protocol_version=2)
        self.assertEqual(client.protocol_version, 2)
        self.assertEqual(client.ready_frame["maxFrameBytes"], 1048576)
        chunks = []
        client.on("rpc_chunk", chunks.append)

        async def blob(args, ctx):
            return BIG

        await client.set_host_tools([HostTool("blob_host", "A big blob", {"type": "object"}, blob)])
        messages = await client.prompt_and_wait("Fetch the blob", timeout=60)
        self.assertEqual(chunks, [])
        self.assertEqual([m["role"] for m in messages], ["user", "assistant", "toolResult", "assistant"])
        self.assertEqual(text_of(by_role(messages, "toolResult")[0]), BIG)
        everything = await client.get_messages()
        self.assertEqual(everything["messages"], messages)
        paged = [m async for m in client.iter_messages(limit=2)]
        self.assertEqual(paged, messages)

    async def test_event_filter(self):
        client = await self.start([{"text": "One."}, {"text": "Two."}])
        self.assertEqual(await client.set_event_filter(["agent_end"]), {"events": ["agent_end"]})
        seen = set()
        client.on_any(lambda f: seen.add(f["type"]))
        await client.prompt_and_wait("hi", timeout=30)
        self.assertIn("agent_end", seen)
        self.assertNotIn("message_update", seen)
        self.assertEqual(await client.set_event_filter(None), {"events": None})
        await client.prompt_and_wait("again", timeout=30)
        self.assertIn("message_update", seen)

    async def test_pi_commands(self):
        client = await self.start([{"text": "One."}])
        self.assertEqual((await client.get_available_thinking_levels())["levels"][0], "off")
        self.assertEqual(await client.clear_queue(), {"steering": [], "followUp": []})
        await client.prompt_and_wait("hi", timeout=30)
        entries = await client.get_entries()
        tree = await client.get_tree()
        self.assertEqual(tree["leafId"], entries["leafId"])
        self.assertEqual(tree["tree"][0]["entry"], entries["entries"][0])


if __name__ == "__main__":
    unittest.main()
