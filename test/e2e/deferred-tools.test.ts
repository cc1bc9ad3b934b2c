// Deferred tools end to end (setting `tools.deferred`): the built CLI offers the
// default specialist tools through one call_tool definition, runs a call made through it as the
// real tool (frames name the tool), answers a name alone with the full description, keeps the
// tools block byte-identical across requests, and offers every tool natively with `[]`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { offeredTools } from "../support/offered-tools.js";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const piths = trackPiths();

async function start(settings?: unknown): Promise<Pith> {
  const home = tempDir("pith-home-");
  if (settings) writeFileSync(path.join(home, "settings.json"), JSON.stringify(settings));
  const cwd = tempDir("pith-cwd-");
  writeFileSync(path.join(cwd, "alpha.txt"), "a\n");
  writeFileSync(path.join(cwd, "beta.txt"), "b\n");
  const p = await Pith.start({ pithHome: home, cwd, modelsJson: fakeModelsJson(llm.url), args: ["--no-session"] });
  piths.push(p);
  return p;
}

const posts = (from: number): FakeRequest[] => llm.requests.slice(from).filter((r) => r.method === "POST");
/** The text of the tool message answering `id` in an OpenAI chat request. */
const toolReply = (req: FakeRequest, id: string): string => String(req.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === id)?.content);

describe("deferred tools (tools.deferred)", () => {
  it("offers the defaults through call_tool, runs a call as the real tool and answers a name alone with its description", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue(
      { toolCalls: [{ id: "c1", name: "call_tool", arguments: { name: "ls" } }] },
      { toolCalls: [{ id: "c2", name: "call_tool", arguments: { name: "ls", arguments: {} } }] },
      { toolCalls: [{ id: "c3", name: "call_tool", arguments: { name: "rm_rf", arguments: {} } }] },
      { text: "listed" },
    );
    const frames = await p.promptAndWait("list the folder", {}, 30_000);
    const reqs = posts(before);
    expect(reqs).toHaveLength(4);

    const offered = offeredTools(reqs[0]!.body);
    expect(offered.native).toEqual(["read", "bash", "edit", "write", "grep", "find", "todo_write", "call_tool"]);
    expect(offered.deferred).toEqual(expect.arrayContaining(["ls", "task", "ast_grep", "calc", "render_mermaid", "notebook"]));
    // the tools block is the same bytes on every request of the session (the cache prefix holds)
    for (const r of reqs) expect(JSON.stringify(r.body.tools)).toBe(JSON.stringify(reqs[0]!.body.tools));

    // the name alone: ls's full description and parameters, nothing run
    expect(toolReply(reqs[1]!, "c1")).toMatch(/^ls: List a directory[\s\S]*Parameters \(JSON Schema\): \{/);
    // the call: ls ran and the model saw its listing
    expect(toolReply(reqs[2]!, "c2")).toBe("alpha.txt\nbeta.txt");
    expect(toolReply(reqs[3]!, "c3")).toMatch(/^No tool named "rm_rf" behind call_tool\. Available: ls, /);

    const starts = frames.filter((f: Frame) => f.type === "tool_execution_start");
    expect(starts.map((f: Frame) => [f.toolCallId, f.toolName])).toEqual([
      ["c1", "call_tool"],
      ["c2", "ls"],
      ["c3", "call_tool"],
    ]);
    expect(starts[1]!.args).toEqual({});
    const ends = frames.filter((f: Frame) => f.type === "tool_execution_end");
    expect(ends.map((f: Frame) => [f.toolName, f.isError])).toEqual([
      ["call_tool", false],
      ["ls", false],
      ["call_tool", true],
    ]);
    // the stored result names the tool that ran; the assistant message keeps the model's call
    const results = frames.filter((f: Frame) => f.type === "message_end" && f.message.role === "toolResult");
    expect(results.map((f: Frame) => f.message.toolName)).toEqual(["call_tool", "ls", "call_tool"]);
    const calls = frames.filter((f: Frame) => f.type === "message_end" && f.message.role === "assistant").flatMap((f: Frame) => f.message.content.filter((b: { type: string }) => b.type === "toolCall"));
    expect(calls.map((b: { name: string }) => b.name)).toEqual(["call_tool", "call_tool", "call_tool"]);

    // hosts still see every tool, each with its own definition
    const state = await p.request({ type: "get_state" });
    expect(state.data.dumpTools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["ls", "task", "calc"]));
  }, 60_000);

  it("tools.deferred: [] offers every tool with its own definition; a list of names defers exactly those", async () => {
    const all = await start({ tools: { deferred: [] } });
    let before = llm.requests.length;
    llm.enqueue({ text: "ok" });
    await all.promptAndWait("hi", {}, 30_000);
    const native = offeredTools(posts(before)[0]!.body);
    expect(native.native).toEqual(expect.arrayContaining(["ls", "task", "calc"]));
    expect(native.native).not.toContain("call_tool");

    const some = await start({ tools: { deferred: ["grep", "find"] } });
    before = llm.requests.length;
    llm.enqueue({ text: "ok" });
    await some.promptAndWait("hi", {}, 30_000);
    const o = offeredTools(posts(before)[0]!.body);
    expect(o.deferred).toEqual(["grep", "find"]);
    expect(o.native).toEqual(expect.arrayContaining(["ls", "task", "calc", "call_tool"]));
  }, 60_000);
});
