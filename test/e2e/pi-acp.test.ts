// pi-acp 0.0.34 (the adapter that runs pi in Zed and other ACP editors) launched with
// PI_ACP_PI_COMMAND pointing at the built pith, driven by the ACP SDK's client() against the
// scripted SSE server: a new session, a streamed prompt with thinking, an edit whose diff reaches
// the editor in tool_call_update, cancel, and a second session. pith answers every command pi-acp
// sends (get_available_thinking_levels was the one missing).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { PROTOCOL_VERSION, client, ndJsonStream, type ActiveSession, type ActiveSessionMessage } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, fakeModelsJson, tempDir, useFakeLlm } from "./harness.js";

const llm = useFakeLlm();
const PI_ACP = path.join(path.dirname(createRequire(import.meta.url).resolve("pi-acp/package.json")), "dist/index.js");
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

/** pi-acp with a launcher script that starts pith against the fake provider. */
function startAdapter(): { child: ChildProcessWithoutNullStreams; home: string } {
  const home = tempDir("pith-acp-home-");
  writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url, { reasoning: true })));
  const launcher = path.join(home, "pith-launcher.sh");
  writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" --provider fake-openai --model fake-gpt "$@"\n`);
  chmodSync(launcher, 0o755);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home, PI_ACP_PI_COMMAND: launcher };
  const child = spawn(process.execPath, [PI_ACP], { env, stdio: "pipe" });
  children.push(child);
  return { child, home };
}

/** Every update of one prompt turn, up to its stop. */
async function turn(session: ActiveSession, text: string, during?: (m: ActiveSessionMessage) => void): Promise<{ updates: any[]; stopReason: string }> {
  const done = session.prompt(text);
  const updates: any[] = [];
  for (;;) {
    const m = await session.nextUpdate();
    during?.(m);
    if (m.kind === "stop") {
      await done;
      return { updates, stopReason: m.stopReason };
    }
    updates.push(m.update);
  }
}

const chunksOf = (updates: any[], kind: string) => updates.filter((u) => u.sessionUpdate === kind).map((u) => u.content.text).join("");

// pi-acp ends a prompt turn only on `agent_settled`, which pith writes.

describe("pi-acp 0.0.34 over pith", () => {
  it("new session, streamed thinking, an edit with its diff, cancel, a second session", async () => {
    const { child } = startAdapter();
    const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const cwd = tempDir("pith-acp-cwd-");
    writeFileSync(path.join(cwd, "notes.txt"), "hello world\n");
    const posts = () => llm.requests.filter((r) => r.method === "POST");

    await client({ name: "pith-e2e" }).connectWith(stream, async (ctx) => {
      const init = await ctx.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      expect(init.protocolVersion).toBe(1);

      const session = await ctx.buildSession(cwd).start();
      expect(session.sessionId).toEqual(expect.any(String));

      // 1. A streamed prompt with thinking.
      llm.enqueue({ thinking: ["Let me ", "think."], text: ["Hello ", "from ", "pith."] });
      const first = await turn(session, "say hello");
      expect(first.stopReason).toBe("end_turn");
      expect(chunksOf(first.updates, "agent_thought_chunk")).toBe("Let me think.");
      expect(chunksOf(first.updates, "agent_message_chunk")).toContain("Hello from pith.");
      expect(JSON.stringify(posts().at(-1)!.body.messages)).toContain("say hello");

      // 2. A tool call that edits a file: the diff arrives in tool_call_update.
      llm.enqueue({ toolCalls: [{ id: "call_edit", name: "edit", arguments: { path: "notes.txt", oldText: "hello", newText: "goodbye" } }] });
      llm.enqueue({ text: "Edited." });
      const edit = await turn(session, "change hello to goodbye");
      expect(edit.stopReason).toBe("end_turn");
      expect(readFileSync(path.join(cwd, "notes.txt"), "utf8")).toBe("goodbye world\n");
      const started = edit.updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "call_edit");
      expect(started).toMatchObject({ kind: "edit" });
      const finished = edit.updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_edit" && u.status === "completed");
      expect(finished.content).toEqual([{ type: "diff", path: "notes.txt", oldText: "hello world\n", newText: "goodbye world\n" }]);
      const toolMessage = posts().at(-1)!.body.messages.find((m: any) => m.role === "tool");
      expect(toolMessage.tool_call_id).toBe("call_edit");

      // 3. Cancel a prompt while the model is still streaming.
      llm.enqueue({ text: Array.from({ length: 200 }, (_, i) => `word${i} `), chunkDelayMs: 50 });
      let cancelled = false;
      const cancel = await turn(session, "write a long story", (m) => {
        if (!cancelled && m.kind === "session_update" && m.update.sessionUpdate === "agent_message_chunk") {
          cancelled = true;
          void ctx.notify("session/cancel", { sessionId: session.sessionId });
        }
      });
      expect(cancelled).toBe(true);
      expect(cancel.stopReason).toBe("cancelled");

      // 4. A second session in another folder gets its own pith.
      const cwd2 = tempDir("pith-acp-cwd2-");
      const second = await ctx.buildSession(cwd2).start();
      expect(second.sessionId).not.toBe(session.sessionId);
      llm.enqueue({ text: "Second session here." });
      const other = await turn(second, "who are you");
      expect(other.stopReason).toBe("end_turn");
      expect(chunksOf(other.updates, "agent_message_chunk")).toContain("Second session here.");
      const lastBody = JSON.stringify(posts().at(-1)!.body.messages);
      expect(lastBody).toContain("who are you");
      expect(lastBody).not.toContain("say hello");
    });
  }, 120_000);
});
