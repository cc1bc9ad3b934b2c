// Host-owned tools end to end: `set_host_tools`, the model calling the
// tool through the real OpenAI provider package, `host_tool_call` / `host_tool_update` /
// `host_tool_result` / `host_tool_cancel`, and stdin EOF with a call pending. Assertions are on
// the frames AND on what the fake LLM received (tools offered, tool results sent back).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeRequest } from "../support/fake-llm-server.js";
import { CLI, Pith, trackPiths, useFakeLlm, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  return p;
}

const ECHO = {
  name: "echo_host",
  label: "Echo Host",
  description: "Echo a value from the embedding host",
  parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false },
};
const def = (name: string, over: Frame = {}) => ({ ...ECHO, name, ...over });

/** Names of the tools offered to the model in one chat-completions request. */
const offered = (req: FakeRequest): string[] => (req.body.tools ?? []).map((t: Frame) => t.function.name);

/** The `role:"tool"` messages of one chat-completions request, as {id, text}. */
function toolResults(req: FakeRequest): { id: string; text: string }[] {
  return req.body.messages
    .filter((m: Frame) => m.role === "tool")
    .map((m: Frame) => ({
      id: m.tool_call_id,
      text: typeof m.content === "string" ? m.content : m.content.map((b: Frame) => b.text ?? "").join(""),
    }));
}

const text = (t: string) => ({ type: "text", text: t });

/** Model calls only (live model discovery also sends `GET /models` to the fake). */
const chats = (): FakeRequest[] => llm.requests.filter((r) => r.method === "POST");

/** Registers echo_host, prompts, and resolves with the `host_tool_call` frame. */
async function promptIntoHostCall(p: Pith, callId: string): Promise<{ call: Frame; from: number }> {
  const reg = await p.request({ type: "set_host_tools", tools: [ECHO] });
  expect(reg).toMatchObject({ success: true, data: { toolNames: ["echo_host"] } });
  llm.enqueue({ toolCalls: [{ id: callId, name: "echo_host", arguments: { message: "hello" } }] });
  const from = p.frames.length;
  const res = await p.request({ type: "prompt", message: "use the host tool" });
  expect(res.success).toBe(true);
  const call = await p.waitFor((f) => f.type === "host_tool_call", 10_000, from);
  return { call, from };
}

describe("host tools over RPC", () => {
  it("round-trips a call with two streamed updates and a result the model receives", async () => {
    const p = await start();
    const before = chats().length;
    const { call, from } = await promptIntoHostCall(p, "call_h1");
    expect(call).toEqual({ type: "host_tool_call", id: expect.any(String), toolCallId: "call_h1", toolName: "echo_host", arguments: { message: "hello" } });
    // The tool was offered to the model with the host's description and schema.
    const first = chats()[before];
    const tool = first.body.tools.find((t: Frame) => t.function.name === "echo_host");
    expect(tool.function.description).toBe(ECHO.description);
    expect(tool.function.parameters).toMatchObject({ properties: { message: { type: "string" } }, required: ["message"] });

    llm.enqueue({ text: "echoed" });
    const partials = [{ content: [text("working 1")] }, { content: [text("working 2")], details: { step: 2 } }];
    for (const partialResult of partials) {
      p.send({ type: "host_tool_update", id: call.id, partialResult });
      await p.waitFor((f) => f.type === "tool_execution_update" && f.partialResult?.content?.[0]?.text === partialResult.content[0].text, 5000, from);
    }
    const result = { content: [text("hello back")], details: { echoed: true } };
    p.send({ type: "host_tool_result", id: call.id, result });
    await p.waitIdle(15_000, from);

    const updates = p.events("tool_execution_update", from);
    expect(updates.map((u) => u.partialResult)).toEqual(partials);
    expect(updates.every((u) => u.toolCallId === "call_h1" && u.toolName === "echo_host")).toBe(true);
    const end = p.events("tool_execution_end", from)[0];
    expect(end).toMatchObject({ toolCallId: "call_h1", toolName: "echo_host", isError: false, result });
    expect(toolResults(chats()[before + 1])).toEqual([{ id: "call_h1", text: "hello back" }]);
    // Sub-protocol frames never get a response.
    expect(p.frames.slice(from).filter((f) => f.type === "response" && String(f.command).startsWith("host_tool"))).toEqual([]);
  });

  it("an isError result fails the tool with the joined text blocks", async () => {
    const p = await start();
    const before = chats().length;
    const { call, from } = await promptIntoHostCall(p, "call_h2");
    llm.enqueue({ text: "noted" });
    const result = { content: [text("  disk full"), { type: "image", data: "aGk=", mimeType: "image/png" }, text("try later  ")], details: { code: 28 } };
    p.send({ type: "host_tool_result", id: call.id, result, isError: true });
    await p.waitIdle(15_000, from);
    const end = p.events("tool_execution_end", from)[0];
    expect(end.isError).toBe(true);
    expect(end.result.content).toEqual([text("disk full\ntry later")]);
    expect(toolResults(chats()[before + 1])).toEqual([{ id: "call_h2", text: "disk full\ntry later" }]);
  });

  it("abort while a call is pending sends host_tool_cancel and fails the tool as aborted", async () => {
    const p = await start();
    const before = chats().length;
    const { call, from } = await promptIntoHostCall(p, "call_h3");
    const abort = await p.request({ type: "abort" });
    expect(abort.success).toBe(true);
    const cancel = await p.waitFor((f) => f.type === "host_tool_cancel", 5000, from);
    expect(cancel).toEqual({ type: "host_tool_cancel", id: expect.any(String), targetId: call.id });
    expect(cancel.id).not.toBe(call.id);
    await p.waitIdle(15_000, from);
    const end = p.events("tool_execution_end", from)[0];
    expect(end).toMatchObject({ toolCallId: "call_h3", isError: true });
    expect(end.result.content[0].text).toBe('Host tool "echo_host" was aborted');
    // The quiet moment's session_settled / agent_settled follow agent_end: let them arrive first.
    await p.waitFor((f) => f.type === "agent_settled", 15_000, from);
    // A late result for the cancelled call is ignored: no response, no second end, no model call.
    const mark = p.frames.length;
    p.send({ type: "host_tool_result", id: call.id, result: { content: [text("too late")] } });
    const state = await p.request({ type: "get_state" });
    expect(state.data.isStreaming).toBe(false);
    expect(p.frames.slice(mark).filter((f) => f.type !== "response" || f.command !== "get_state")).toEqual([]);
    expect(chats().length).toBe(before + 1);
    // The next turn sends the aborted tool result to the model.
    llm.enqueue({ text: "ok" });
    await p.promptAndWait("again");
    const next = chats()[before + 1];
    expect(toolResults(next)).toEqual([{ id: "call_h3", text: 'Host tool "echo_host" was aborted' }]);
  });

  it("re-registration replaces the set; names are trimmed and keep their case, hidden tools are not offered to the model", async () => {
    const p = await start();
    const before = chats().length;
    expect((await p.request({ type: "set_host_tools", tools: [def("old_tool")] })).data).toEqual({ toolNames: ["old_tool"] });
    const reg = await p.request({ type: "set_host_tools", tools: [def(" New-Tool ", { label: "  " }), def("secret_tool", { hidden: true })] });
    expect(reg).toMatchObject({ success: true, data: { toolNames: ["New-Tool", "secret_tool"] } });
    llm.enqueue({ text: "one" });
    await p.promptAndWait("which tools?");
    const names = offered(chats()[before]);
    expect(names).toContain("New-Tool");
    expect(names).toContain("read");
    expect(names).not.toContain("old_tool");
    expect(names).not.toContain("secret_tool");
    // An empty list removes every host tool.
    expect((await p.request({ type: "set_host_tools", tools: [] })).data).toEqual({ toolNames: [] });
    llm.enqueue({ text: "two" });
    await p.promptAndWait("and now?");
    const after = offered(chats()[before + 1]);
    expect(after).not.toContain("New-Tool");
    expect(after).toContain("read");
  });

  it("rejects invalid definitions naming the offending field, duplicates and built-in conflicts", async () => {
    const p = await start();
    const cases: [unknown[], string | RegExp][] = [
      [[{ ...def("x"), name: "   " }], "Host tool at index 0 must provide a non-empty name"],
      [[def("ok_tool"), { ...def("y"), name: "" }], "Host tool at index 1 must provide a non-empty name"],
      [[def("no_desc", { description: " " })], 'Host tool "no_desc" must provide a non-empty description'],
      [[def("twice"), def("twice")], "RPC host tool names must be unique"],
      [[def("read")], 'RPC host tool "read" conflicts with an existing tool'],
      // Wrong types get the same protocol messages, naming the tool or its index.
      [[def("ok_tool"), { description: "d", parameters: {} }], "Host tool at index 1 must provide a non-empty name"],
      [[def("no_params", { parameters: undefined })], 'Host tool "no_params" must provide a JSON Schema object'],
      [[def("array_params", { parameters: [] })], 'Host tool "array_params" must provide a JSON Schema object'],
    ];
    for (const [i, [tools, error]] of cases.entries()) {
      const res = await p.request({ id: `bad_${i}`, type: "set_host_tools", tools });
      expect(res).toMatchObject({ type: "response", id: `bad_${i}`, command: "set_host_tools", success: false });
      expect(res.error).toMatch(error);
    }
    // Nothing was registered by the failures; a valid registration still works.
    expect((await p.request({ type: "set_host_tools", tools: [def("fine_tool")] })).data).toEqual({ toolNames: ["fine_tool"] });
  });

  it("a missing name/parameters gets the exact protocol message", async () => {
    const p = await start();
    const noName = await p.request({ type: "set_host_tools", tools: [def("ok_tool"), { description: "d", parameters: {} }] });
    expect(noName.error).toBe("Host tool at index 1 must provide a non-empty name");
    const arrayParams = await p.request({ type: "set_host_tools", tools: [def("array_params", { parameters: [] })] });
    expect(arrayParams.error).toBe('Host tool "array_params" must provide a JSON Schema object');
  });

  it("ignores host_tool_result and host_tool_update frames with unknown ids", async () => {
    const p = await start();
    const mark = p.frames.length;
    p.send({ type: "host_tool_update", id: "never-issued", partialResult: { content: [text("x")] } });
    p.send({ type: "host_tool_result", id: "never-issued", result: { content: [text("x")] } });
    const state = await p.request({ type: "get_state" });
    expect(state.success).toBe(true);
    expect(p.frames.slice(mark)).toEqual([state]);
  });

  it("stdin EOF with a pending call fails it as disconnected, finishes the turn and exits 0", async () => {
    const p = await start();
    const before = chats().length;
    const { from } = await promptIntoHostCall(p, "call_h4");
    llm.enqueue({ text: "the host went away" });
    const code = await p.close();
    expect(code).toBe(0);
    const end = p.events("tool_execution_end", from)[0];
    expect(end).toMatchObject({ toolCallId: "call_h4", isError: true });
    expect(end.result.content[0].text).toBe("RPC client disconnected before host tool execution completed");
    expect(p.events("agent_end", from)).toHaveLength(1);
    expect(toolResults(chats()[before + 1])).toEqual([{ id: "call_h4", text: "RPC client disconnected before host tool execution completed" }]);
  });
});

describe("host tools after stdin EOF", () => {
  it("calls made after the host went away fail at once; the run finishes and the process exits 0", async () => {
    const dir = tempDir("pith-script-");
    const script = path.join(dir, "s.json");
    const call = { name: "echo_host", arguments: { message: "hi" } };
    writeFileSync(script, JSON.stringify({ replies: [{ toolCalls: [call] }, { toolCalls: [call] }, { text: "gave up" }] }));
    const home = tempDir("pith-home-");
    const input =
      JSON.stringify({ type: "set_host_tools", tools: [{ name: "echo_host", description: "Echo", parameters: { type: "object", properties: { message: { type: "string" } } } }] }) +
      "\n" +
      JSON.stringify({ type: "prompt", message: "use the host tool" }) +
      "\n";
    const res = spawnSync(process.execPath, [CLI, "--mode", "rpc", "--no-session", "--provider", "scripted", "--model", script], {
      input,
      env: { PATH: process.env.PATH, PITH_HOME: home, HOME: home },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(res.status).toBe(0);
    const frames = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const ends = frames.filter((f) => f.type === "tool_execution_end");
    expect(ends).toHaveLength(2);
    for (const e of ends) expect(e.result.content[0].text).toBe("RPC client disconnected before host tool execution completed");
    expect(frames.slice(-4).map((f) => f.type)).toEqual(["agent_end", "prompt_result", "session_settled", "agent_settled"]);
  });
});
