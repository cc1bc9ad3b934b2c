// The RPC front door in-process: a session with a scripted model behind `RpcServer`, driven over
// the memory transport. Every command of the protocol is sent at least once (a command added to
// the schemas without a sample here fails the type check and the coverage test).
import { describe, expect, it } from "vitest";
import { fakeTool, scriptedStream, type Reply } from "../../test/support/agent.js";
import { COMMAND_TYPES, type RpcCommandType } from "../protocol/index.js";
import { testSession } from "../../test/support/session.js";
import { createMemoryTransport, type MemoryHost } from "../transport/index.js";
import { RpcServer } from "./server.js";

const text = (t: string): Reply => ({ steps: [{ text: t }] });

function start(replies: Reply[], options: { deltaOnly?: boolean } = {}) {
  const { stream, calls } = scriptedStream(replies);
  const built = testSession({ stream, tools: [fakeTool("probe")] });
  const { transport, host } = createMemoryTransport();
  const logs: string[] = [];
  const server = new RpcServer(built.session, transport, { log: (m) => logs.push(m), newId: counter(), ...options });
  server.ready("test");
  const served = server.serve();
  return { ...built, host, server, served, calls, logs };
}

function counter(): () => string {
  let n = 0;
  return () => `out-${++n}`;
}

/** Sends one command and resolves with its response (matched by id). */
async function ask(host: MemoryHost, command: Record<string, unknown>): Promise<any> {
  const from = host.frames.length;
  host.send(command);
  return host.waitFor((f) => f.type === "response" && f.id === command.id, from);
}

/** One request per command type, in an order that leaves each one something to act on. */
const SAMPLES: Record<RpcCommandType, Record<string, unknown>> = {
  prompt: { message: "hello" },
  steer: { message: "steer me" },
  follow_up: { message: "follow me" },
  abort: {},
  abort_and_prompt: { message: "again" },
  new_session: {},
  get_state: {},
  set_todos: { phases: [{ id: "p1", name: "Plan", tasks: [{ id: "t1", content: "x", status: "pending" }] }] },
  set_host_tools: { tools: [{ name: "echo_host", description: "echo", parameters: { type: "object" } }] },
  set_model: { provider: "scripted", modelId: "scripted-1" },
  cycle_model: {},
  get_available_models: {},
  set_thinking_level: { level: "high" },
  cycle_thinking_level: {},
  set_steering_mode: { mode: "all" },
  set_follow_up_mode: { mode: "all" },
  set_interrupt_mode: { mode: "immediate" },
  compact: {},
  set_auto_compaction: { enabled: false },
  set_auto_retry: { enabled: false },
  abort_retry: {},
  bash: { command: "echo hi" },
  abort_bash: {},
  get_session_stats: {},
  export_html: {},
  switch_session: { sessionPath: "missing.jsonl" },
  branch: { entryId: "ffffffff" },
  get_branch_messages: {},
  get_last_assistant_text: {},
  set_session_name: { name: "my session" },
  get_messages: {},
  fork: { entryId: "ffffffff" },
  get_fork_messages: {},
  clone: {},
  get_commands: {},
  resume_session: { sessionFile: "missing.jsonl" },
  set_delta_streaming: { enabled: false },
  set_heartbeat: { intervalMs: 0 },
  get_integrations: {},
  get_checkpoints: {},
  diff_checkpoint: { checkpointId: "0123456789abcdef" },
  restore_checkpoint: { checkpointId: "0123456789abcdef" },
  set_permissions: { rules: { deny: ["bash(rm -rf:*)"] } },
  negotiate_protocol: { protocolVersion: 2 },
  set_event_filter: { events: null },
  get_messages_page: { limit: 5 },
  get_available_commands: {},
  get_available_thinking_levels: {},
  clear_queue: {},
  set_mcp_servers: { servers: {} },
  get_mcp_servers: {},
  get_lsp_servers: {},
  list_sessions: { limit: 5 },
  get_entries: {},
  get_tree: {},
  open_session: { sessionDir: "opened" },
  delete_session: { sessionPath: "missing.jsonl" },
  create_session: {},
  close_session: { sessionId: "nope" },
  get_open_sessions: {},
  set_subagent_subscription: { level: "off" },
  get_subagents: {},
  get_subagent_messages: { subagentId: "nope" },
  get_project_trust: {},
  trust_project: {},
};

describe("RpcServer over the memory transport", () => {
  it("has a sample for every command of the protocol", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...COMMAND_TYPES].sort());
  });

  it("answers every command exactly once, echoing its id, and keeps serving", async () => {
    const h = start([text("one"), text("two"), text("three"), text("summary"), text("four")]);
    await h.host.waitFor((f) => f.type === "ready");
    expect(h.host.frames[0]).toMatchObject({ type: "ready", version: "test", protocolVersion: 1 });
    for (const type of COMMAND_TYPES) {
      const id = `req-${type}`;
      const response = await ask(h.host, { id, type, ...SAMPLES[type] });
      expect(response).toMatchObject({ type: "response", id, command: type });
      if (type === "prompt" || type === "abort_and_prompt") await h.session.waitForIdle();
    }
    const responses = h.host.frames.filter((f: any) => f.type === "response");
    for (const type of COMMAND_TYPES) expect(responses.filter((f: any) => f.id === `req-${type}`)).toHaveLength(1);
    // a few answers, checked for their data
    const by = (type: string) => responses.find((f: any) => f.id === `req-${type}`);
    expect(by("set_host_tools")).toMatchObject({ success: true, data: { toolNames: ["echo_host"] } });
    expect(by("set_model")).toMatchObject({ success: true, data: { provider: "scripted", id: "scripted-1" } });
    expect(by("switch_session")).toMatchObject({ success: false, error: expect.stringContaining("Session file not found") });
    expect(by("branch")).toEqual({ type: "response", id: "req-branch", command: "branch", success: false, error: "Invalid entry ID for branching" });
    expect(by("bash")).toMatchObject({ success: true, data: { output: "hi\n", exitCode: 0 } });
    expect(by("get_state")).toMatchObject({ success: true, data: { isStreaming: false, deltaStreaming: false } });
    expect(by("abort")).toEqual({ type: "response", id: "req-abort", command: "abort", success: true });
    h.host.end();
    expect(await h.served).toBe(0);
  });

  it("turns session events into frames and a bad line into a parse error, in order", async () => {
    const h = start([text("streamed reply")]);
    h.host.send("not json\n");
    const parse = await h.host.waitFor((f) => f.command === "parse");
    expect(parse).toMatchObject({ type: "response", success: false, error: expect.stringMatching(/^Failed to parse command: Invalid JSON/) });
    expect(parse).not.toHaveProperty("id");
    await ask(h.host, { id: "p", type: "prompt", message: "hi" });
    await h.host.waitFor((f) => f.type === "agent_end");
    const kinds = h.host.frames.map((f: any) => f.type);
    expect(kinds.indexOf("response")).toBeLessThan(kinds.indexOf("agent_start"));
    const end: any = h.host.frames.find((f: any) => f.type === "message_end" && f.message.role === "assistant");
    expect(end.message.content[0].text).toBe("streamed reply");
    h.host.end();
    await h.served;
  });

  it("answers unknown commands and bad fields with the command's id", async () => {
    const h = start([text("x")]);
    expect(await ask(h.host, { id: 7, type: "no_such" })).toEqual({ type: "response", id: 7, command: "no_such", success: false, error: "Unknown command: no_such" });
    expect(await ask(h.host, { id: "m", type: "set_model", provider: 1 })).toMatchObject({ success: false, command: "set_model", error: expect.stringContaining('"provider"') });
    h.host.end();
    await h.served;
  });

  it("host tools round-trip through the sink: host_tool_call out, host_tool_result in", async () => {
    const h = start([{ steps: [{ toolCall: { id: "c1", name: "echo_host", args: { message: "ping" } } }] }, text("done")]);
    await ask(h.host, { id: "t", type: "set_host_tools", tools: [{ name: "echo_host", description: "echo", parameters: { type: "object" } }] });
    await ask(h.host, { id: "p", type: "prompt", message: "call it" });
    const call = await h.host.waitFor((f) => f.type === "host_tool_call");
    expect(call).toEqual({ type: "host_tool_call", id: "out-1", toolCallId: "c1", toolName: "echo_host", arguments: { message: "ping" } });
    h.host.send({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text: "pong" }] } });
    await h.host.waitFor((f) => f.type === "agent_end");
    expect(JSON.stringify(h.calls[1].context.messages.at(-1))).toContain("pong");
    h.host.end();
    await h.served;
  });

  it("stdin EOF finishes the accepted run before exiting 0; control commands pass a long bash", async () => {
    const h = start([text("late reply")]);
    h.host.send({ id: "b", type: "bash", command: "sleep 0.3; echo slept" });
    const state = await ask(h.host, { id: "s", type: "get_state" });
    expect(state.success).toBe(true);
    expect(h.host.frames.some((f: any) => f.id === "b")).toBe(false); // bash still running
    h.host.send({ id: "p", type: "prompt", message: "queued behind bash" });
    h.host.end();
    expect(await h.served).toBe(0);
    const kinds = h.host.frames.map((f: any) => f.id ?? f.type);
    expect(kinds.indexOf("b")).toBeLessThan(kinds.indexOf("p"));
    // The run's end, its prompt_result (id "p") and the settled pair are written before exit.
    expect(kinds.slice(-4)).toEqual(["agent_end", "p", "session_settled", "agent_settled"]);
  });
});
