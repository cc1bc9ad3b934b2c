// A session file that holds a tool call without its result (pith crashed while the tool ran, or
// an older version wrote it): opening it repairs the context the provider gets, and the file is
// never rewritten for it.
import { readFileSync, writeFileSync } from "node:fs";
import { sessionWiring } from "./session-wiring.js";
import { describe, expect, it } from "vitest";
import { fakeTool, scriptedStream, type Reply } from "../../test/support/agent.js";
import type { LlmMessage } from "../shared/types.js";
import { INTERRUPTED_TOOL_TEXT } from "./convert-to-llm.js";
import { createJsonlStorage } from "./index.js";
import { testSession } from "../../test/support/session.js";

const text = (t: string): Reply => ({ steps: [{ text: t }] });
const callTool = (id: string, name: string): Reply => ({ steps: [{ toolCall: { id, name, args: {} } }] });
type Line = { type: string; message?: { role: string; toolCallId?: string } };
const parse = (raw: string): Line[] =>
  raw
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);

/** A real session file cut right after the assistant's tool call: the state a crash mid-tool leaves. */
async function crashedSessionFile(): Promise<{ file: string; cwd: string }> {
  const { stream } = scriptedStream([callTool("call_lost", "probe"), text("done")]);
  const { session } = testSession({ stream, tools: [fakeTool("probe")] });
  await session.prompt("look around").done;
  const file = sessionWiring(session).history.sessionFile!;
  const cwd = session.cwd;
  await session.close();
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  const at = lines.findIndex((l) => (JSON.parse(l) as Line).message?.role === "toolResult");
  expect(at).toBeGreaterThan(0);
  writeFileSync(file, lines.slice(0, at).join("\n") + "\n");
  return { file, cwd };
}

describe("a session file with an unpaired tool call", () => {
  it("is repaired in the context sent to the provider; the file's bytes stay as they were", async () => {
    const { file, cwd } = await crashedSessionFile();
    const before = readFileSync(file);
    expect(parse(before.toString("utf8")).at(-1)?.message?.role).toBe("assistant");

    const storage = createJsonlStorage();
    const { stream, calls } = scriptedStream([text("carrying on")]);
    const { session } = testSession({ stream, tools: [fakeTool("probe")], cwd, extra: { storage, file: storage.open(file, { cwd }) } });
    // opening (and reading the context) writes nothing
    const roles = sessionWiring(session).history.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "toolResult"]);
    expect(readFileSync(file).equals(before)).toBe(true);

    await session.prompt("go on").done;
    expect(calls).toHaveLength(1);
    const sent: LlmMessage[] = calls[0].context.messages;
    const callAt = sent.findIndex((m) => m.role === "assistant");
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
    expect(sent[callAt + 1]).toMatchObject({ role: "toolResult", toolCallId: "call_lost", toolName: "probe", isError: true, content: [{ type: "text", text: INTERRUPTED_TOOL_TEXT }] });
    await session.close();

    // the run appended its own entries after the old bytes; the old bytes are untouched and no
    // result for the lost call was written
    const after = readFileSync(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const appended = parse(after.subarray(before.length).toString("utf8"));
    expect(appended.map((l) => l.message?.role)).toEqual(["user", "assistant"]);
    expect(appended.some((l) => l.message?.toolCallId === "call_lost")).toBe(false);
  });
});
