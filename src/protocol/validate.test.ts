import { describe, expect, it } from "vitest";
import { COMMAND_TYPES, type RpcCommandType } from "./commands.js";
import { MAX_JSON_DEPTH } from "../shared/json-depth.js";
import { unknownCommandError, validateInbound } from "./validate.js";

const image = { type: "image", data: "aGk=", mimeType: "image/png" };
const phases = [{ id: "phase-1", name: "P", tasks: [{ id: "task-1", content: "c", status: "pending", notes: "n" }] }];
const tool = { name: "echo_host", description: "Echo", parameters: { type: "object" } };

/** A valid frame per command and, where it has fields, one bad field with the expected error. */
const CASES: Record<RpcCommandType, { valid: Record<string, unknown>; bad?: [Record<string, unknown>, string] }> = {
  prompt: {
    valid: { message: "hi", images: [image], streamingBehavior: "steer" },
    bad: [{ message: 42 }, 'Invalid "message": expected string'],
  },
  steer: { valid: { message: "s" }, bad: [{ message: "s", images: [{ ...image, data: 1 }] }, 'Invalid "images[0].data": expected string'] },
  follow_up: { valid: { message: "f", images: [] }, bad: [{}, 'Invalid "message": expected string'] },
  abort: { valid: {} },
  abort_and_prompt: { valid: { message: "m" }, bad: [{ message: null }, 'Invalid "message": expected string'] },
  new_session: { valid: { parentSession: "/p.jsonl" }, bad: [{ parentSession: 1 }, 'Invalid "parentSession": expected string'] },
  get_state: { valid: {} },
  set_todos: {
    valid: { phases },
    bad: [{ phases: { id: "p" } }, 'Invalid "phases": expected array'],
  },
  set_host_tools: {
    valid: { tools: [tool] },
    // Definitions themselves are checked by the handler (exact protocol messages); the boundary checks the array.
    bad: [{ tools: { ...tool } }, 'Invalid "tools": expected array'],
  },
  set_model: { valid: { provider: "p", modelId: "m" }, bad: [{ provider: "p" }, 'Invalid "modelId": expected string'] },
  cycle_model: { valid: {} },
  get_available_models: { valid: {} },
  set_thinking_level: { valid: { level: "inherit" }, bad: [{ level: "max" }, 'Invalid "level": expected one of "inherit", "off", "minimal", "low", "medium", "high", "xhigh"'] },
  cycle_thinking_level: { valid: {} },
  set_steering_mode: { valid: { mode: "all" }, bad: [{ mode: "some" }, 'Invalid "mode": expected one of "all", "one-at-a-time"'] },
  set_follow_up_mode: { valid: { mode: "one-at-a-time" }, bad: [{}, 'Invalid "mode": expected one of "all", "one-at-a-time"'] },
  set_interrupt_mode: { valid: { mode: "wait" }, bad: [{ mode: "all" }, 'Invalid "mode": expected one of "immediate", "wait"'] },
  compact: { valid: { customInstructions: "short" }, bad: [{ customInstructions: [] }, 'Invalid "customInstructions": expected string'] },
  set_auto_compaction: { valid: { enabled: false }, bad: [{ enabled: "yes" }, 'Invalid "enabled": expected boolean'] },
  set_auto_retry: { valid: { enabled: true }, bad: [{ enabled: 1 }, 'Invalid "enabled": expected boolean'] },
  abort_retry: { valid: {} },
  bash: { valid: { command: "ls" }, bad: [{ command: ["ls"] }, 'Invalid "command": expected string'] },
  abort_bash: { valid: {} },
  get_session_stats: { valid: {} },
  export_html: { valid: {}, bad: [{ outputPath: false }, 'Invalid "outputPath": expected string'] },
  switch_session: { valid: { sessionPath: "/s.jsonl" }, bad: [{}, 'Invalid "sessionPath": expected string'] },
  resume_session: { valid: { sessionFile: "/s.jsonl" }, bad: [{}, 'Invalid "sessionFile": expected string'] },
  branch: { valid: { entryId: "a1b2c3d4" }, bad: [{ entryId: 5 }, 'Invalid "entryId": expected string'] },
  get_branch_messages: { valid: {} },
  get_last_assistant_text: { valid: {} },
  set_session_name: { valid: { name: "n" }, bad: [{ name: {} }, 'Invalid "name": expected string'] },
  get_messages: { valid: {} },
  fork: { valid: { entryId: "a1b2c3d4" }, bad: [{}, 'Invalid "entryId": expected string'] },
  get_fork_messages: { valid: {} },
  clone: { valid: {} },
  get_commands: { valid: {} },
  set_delta_streaming: { valid: { enabled: true }, bad: [{ enabled: "on" }, 'Invalid "enabled": expected boolean'] },
  set_heartbeat: { valid: { intervalMs: 1000 }, bad: [{ intervalMs: "1s" }, 'Invalid "intervalMs": expected number'] },
  get_integrations: { valid: {} },
  get_checkpoints: { valid: {} },
  diff_checkpoint: { valid: { checkpointId: "0123456789abcdef", toCheckpointId: "0123456789abcdee" }, bad: [{}, 'Invalid "checkpointId": expected string'] },
  restore_checkpoint: {
    valid: { checkpointId: "0123456789abcdef", mode: "both", paths: ["src"] },
    bad: [{ checkpointId: "0123456789abcdef", mode: "all" }, 'Invalid "mode": expected one of "files", "conversation", "both"'],
  },
  set_permissions: { valid: { rules: { mode: "ask-writes", allow: ["bash(npm test)"] } }, bad: [{ rules: { mode: "sometimes" } }, 'Invalid "rules.mode": expected one of "allow", "ask", "ask-writes", "read-only"'] },
  negotiate_protocol: { valid: { protocolVersion: 2 }, bad: [{ protocolVersion: "2" }, 'Invalid "protocolVersion": expected number'] },
  set_event_filter: { valid: { events: ["agent_end"] }, bad: [{ events: "agent_end" }, 'Invalid "events": expected array of string or null'] },
  get_messages_page: { valid: { cursor: "abc", limit: 10 }, bad: [{ limit: "10" }, 'Invalid "limit": expected number'] },
  get_available_commands: { valid: {} },
  get_available_thinking_levels: { valid: {} },
  clear_queue: { valid: {} },
  set_mcp_servers: { valid: { servers: { fs: { command: "mcp-fs" } } }, bad: [{ servers: [] }, 'Invalid "servers": expected object'] },
  get_mcp_servers: { valid: {} },
  get_lsp_servers: { valid: {} },
  list_sessions: { valid: { cwd: "/p", all: false, limit: 10, cursor: "c", query: "q", sessionId: "s1" }, bad: [{ all: "yes" }, 'Invalid "all": expected boolean'] },
  get_entries: { valid: { since: "abc" }, bad: [{ since: 1 }, 'Invalid "since": expected string'] },
  get_tree: { valid: {} },
  open_session: { valid: { sessionDir: "/d" }, bad: [{}, 'Invalid "sessionDir": expected string'] },
  delete_session: { valid: { sessionPath: "/s.jsonl" }, bad: [{}, 'Invalid "sessionPath": expected string'] },
  create_session: { valid: { cwd: "/p", provider: "p", modelId: "m", noSession: true }, bad: [{ noSession: "yes" }, 'Invalid "noSession": expected boolean'] },
  close_session: { valid: { sessionId: "s1" }, bad: [{ sessionId: 3 }, 'Invalid "sessionId": expected string'] },
  get_open_sessions: { valid: {} },
  set_subagent_subscription: { valid: { level: "progress" }, bad: [{ level: "all" }, 'Invalid "level": expected "off" or "progress" or "events"'] },
  get_subagents: { valid: {} },
  get_subagent_messages: { valid: { subagentId: "a", fromByte: 120 }, bad: [{ fromByte: "0" }, 'Invalid "fromByte": expected number'] },
  get_project_trust: { valid: {} },
  trust_project: { valid: { persist: true }, bad: [{ persist: "yes" }, 'Invalid "persist": expected boolean'] },
};

describe("validateInbound: commands", () => {
  it("has a case for every command type and nothing else", () => {
    expect(Object.keys(CASES).sort()).toEqual([...COMMAND_TYPES].sort());
  });

  for (const type of Object.keys(CASES) as RpcCommandType[]) {
    const { valid, bad } = CASES[type];
    it(`${type}: accepts a valid frame (extra fields ignored) and names a bad field`, () => {
      const frame = { id: `req-${type}`, type, ...valid, extra: { ignored: true } };
      expect(validateInbound(frame)).toEqual({ kind: "command", command: frame });
      const [badFields, error] = bad ?? [{ id: { not: "readable" } }, 'Invalid "id": expected string or number'];
      const result = validateInbound({ id: 7, type, ...badFields });
      expect(result).toEqual(bad ? { kind: "invalid", command: type, id: 7, error } : { kind: "invalid", command: type, error });
    });
  }

  it("echoes string and numeric ids and omits unreadable ones", () => {
    expect(validateInbound({ id: 3, type: "get_state" })).toMatchObject({ kind: "command" });
    expect(validateInbound({ type: "nope", id: "x" })).toEqual({ kind: "unknown", type: "nope", id: "x" });
    expect(validateInbound({ type: "nope", id: 4 })).toEqual({ kind: "unknown", type: "nope", id: 4 });
    expect(validateInbound({ type: "nope", id: [1] })).toEqual({ kind: "unknown", type: "nope" });
  });

  it("treats a missing type, a non-string type, and xcsh-only commands as unknown", () => {
    expect(validateInbound({ id: "a" })).toEqual({ kind: "unknown", id: "a" });
    expect(validateInbound({ type: 5 })).toEqual({ kind: "unknown", type: 5 });
    expect(validateInbound({ type: "set_locale", locale: "en" })).toEqual({ kind: "unknown", type: "set_locale" });
    expect(validateInbound(null)).toEqual({ kind: "unknown" });
    expect(validateInbound([{ type: "get_state" }])).toEqual({ kind: "unknown" });
    expect(validateInbound("get_state")).toEqual({ kind: "unknown" });
  });
});

describe("validateInbound: dispatch order", () => {
  it("routes UI responses first and ignores malformed ones", () => {
    const frame = { type: "extension_ui_response", id: "u1", confirmed: true };
    expect(validateInbound(frame)).toEqual({ kind: "ui_response", frame });
    expect(validateInbound({ type: "extension_ui_response", id: "u2", cancelled: true, timedOut: true })).toMatchObject({
      kind: "ui_response",
    });
    expect(validateInbound({ type: "extension_ui_response", value: "x" })).toEqual({
      kind: "ignored",
      type: "extension_ui_response",
      error: 'Invalid "id": expected string',
    });
  });

  it("routes well-formed host tool frames", () => {
    const result = { type: "host_tool_result", id: "h1", result: { content: [{ type: "text", text: "ok" }], details: { a: 1 } }, isError: false };
    expect(validateInbound(result)).toEqual({ kind: "host_tool_result", frame: result });
    const update = { type: "host_tool_update", id: "h1", partialResult: { content: [] } };
    expect(validateInbound(update)).toEqual({ kind: "host_tool_update", frame: update });
  });

  it("lets malformed host tool frames fall through to the command path as unknown", () => {
    expect(validateInbound({ type: "host_tool_result", id: "h1", result: { content: "x" } })).toEqual({
      kind: "unknown",
      type: "host_tool_result",
      id: "h1",
      detail: 'Invalid "result.content": expected array of "text" object or "image" object',
    });
    expect(validateInbound({ type: "host_tool_result", id: 9, result: { content: [] } })).toMatchObject({
      kind: "unknown",
      type: "host_tool_result",
      id: 9,
      detail: 'Invalid "id": expected string',
    });
    expect(validateInbound({ type: "host_tool_update", id: "h1" })).toMatchObject({
      kind: "unknown",
      type: "host_tool_update",
      detail: 'Invalid "partialResult": expected object',
    });
  });
});

describe("validateInbound: hostile values", () => {
  const deep = (depth: number): unknown => {
    let value: unknown = [];
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  it("never calls a host value's toString or valueOf", () => {
    for (const type of [{ toString: 1 }, { toString: null, valueOf: null }, [{ toString: 1 }]]) {
      const result = validateInbound({ type, id: "t" });
      expect(result).toEqual({ kind: "unknown", type, id: "t" });
      expect(() => unknownCommandError(type)).not.toThrow();
    }
    expect(unknownCommandError({ toString: 1 })).toBe("Unknown command: [object Object]");
    expect(unknownCommandError(deep(10_000))).toBe("Unknown command: [object Array]");
    expect(unknownCommandError(undefined)).toBe("Unknown command: undefined");
    expect(unknownCommandError(5)).toBe("Unknown command: 5");
    expect(unknownCommandError("nope")).toBe("Unknown command: nope");
  });

  it("refuses a command nested too deeply, naming the field and echoing the id", () => {
    const phases = [{ id: "p", name: "n", tasks: [{ content: "c", notes: deep(100_000) }] }];
    expect(validateInbound({ id: 1, type: "set_todos", phases })).toEqual({
      kind: "invalid",
      command: "set_todos",
      id: 1,
      error: `Invalid "phases[0].tasks[0].notes": nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
    expect(validateInbound({ type: deep(10_000) })).toMatchObject({ kind: "unknown" });
    expect(validateInbound({ type: "extension_ui_response", id: "u", value: deep(1000) })).toMatchObject({ kind: "ignored" });
    expect(validateInbound({ type: "host_tool_result", id: "h", result: { content: [], details: deep(1000) } })).toMatchObject({
      kind: "unknown",
      type: "host_tool_result",
      detail: `Invalid "result.details": nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
  });
});
