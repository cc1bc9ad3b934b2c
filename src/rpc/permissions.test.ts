// Permissions through the RPC front door, in-process: asks become `select` dialogs with the
// `permission` field, each answer (Allow once / Allow always / Deny / cancel / timeout / EOF)
// reaches the model as the right tool result, "Allow always" is a grant of the project (kept
// outside the session file, in force across new_session and switch_session; an old grant
// entry in a session file grants nothing), deny rules apply to any tool by its full name.
import { describe, expect, it } from "vitest";
import { fakeTool, scriptedStream, type Reply } from "../../test/support/agent.js";
import { testSession, testSettings } from "../../test/support/session.js";
import { createMemoryTransport, type MemoryHost } from "../transport/index.js";
import { RpcServer } from "./server.js";
import { pathArg } from "../shared/tool-effect.js";
import { readFileSync } from "node:fs";

const call = (id: string, name: string, args: Record<string, unknown>): Reply => ({ steps: [{ toolCall: { id, name, args } }] });
const text = (t: string): Reply => ({ steps: [{ text: t }] });

function start(replies: Reply[], permissions?: { mode: "allow" | "ask" | "ask-writes" | "read-only"; allow?: string[]; deny?: string[]; timeoutMs?: number }) {
  const { stream, calls } = scriptedStream(replies);
  const path = (a: Record<string, unknown>) => pathArg(a, "path", "file");
  const tools = [fakeTool("edit", { effect: "writes-files", paths: path }), fakeTool("read", { effect: "read-only", paths: path }), fakeTool("mcp__srv__drop")];
  const settings = testSettings((s) => {
    if (permissions) s.permissions = { allow: [], ask: [], deny: [], ...permissions };
  });
  const built = testSession({ stream, tools, settings });
  const { transport, host } = createMemoryTransport();
  let n = 0;
  const server = new RpcServer(built.session, transport, { log: () => undefined, newId: () => `out-${++n}` });
  server.ready("test");
  const served = server.serve();
  return { ...built, host, served, calls, tools };
}

async function ask(host: MemoryHost, command: Record<string, unknown>): Promise<any> {
  const from = host.frames.length;
  host.send(command);
  return host.waitFor((f) => f.type === "response" && f.id === command.id, from);
}

/** The tool results the model saw in its last request. */
function resultsSeen(calls: ReturnType<typeof scriptedStream>["calls"]): Array<{ text: string; isError: boolean }> {
  const last = calls[calls.length - 1];
  return last.context.messages
    .filter((m: any) => m.role === "toolResult")
    .map((m: any) => ({ text: m.content.map((c: any) => c.text).join(""), isError: m.isError }));
}

const dialog = (host: MemoryHost, from = 0) => host.waitFor((f) => f.type === "extension_ui_request" && f.method === "select", from);

describe("permissions over RPC", () => {
  it("ask-writes: an edit asks with the permission payload; Allow once runs it, reads never ask", async () => {
    const h = start([{ steps: [{ toolCall: { id: "r1", name: "read", args: { path: "a.txt" } } }, { toolCall: { id: "e1", name: "edit", args: { path: "src/a.ts" } } }] }, text("done")], { mode: "ask-writes" });
    await ask(h.host, { id: "p", type: "prompt", message: "go" });
    const d = await dialog(h.host);
    expect(d).toMatchObject({
      title: "Allow edit: src/a.ts?",
      options: ["Allow once", "Allow always", "Deny"],
      permission: { toolCallId: "e1", toolName: "edit", arguments: { path: "src/a.ts" }, rule: "edit(src/a.ts)" },
    });
    expect(h.tools[0].log).toEqual([]);
    h.host.send({ type: "extension_ui_response", id: d.id, value: "Allow once" });
    await h.host.waitFor((f) => f.type === "agent_end");
    expect(resultsSeen(h.calls)).toEqual([
      { text: "read ok", isError: false },
      { text: "edit ok", isError: false },
    ]);
    expect(h.host.frames.filter((f: any) => f.type === "extension_ui_request" && f.method === "select")).toHaveLength(1);
    h.host.end();
    await h.served;
  });

  it("Deny and cancel give an error result naming who denied and why; the run goes on", async () => {
    const h = start([call("e1", "edit", { path: "x" }), call("e2", "edit", { path: "y" }), text("done")], { mode: "ask-writes" });
    await ask(h.host, { id: "p", type: "prompt", message: "go" });
    const d1 = await dialog(h.host);
    h.host.send({ type: "extension_ui_response", id: d1.id, value: "Deny" });
    const d2 = await dialog(h.host, h.host.frames.indexOf(d1) + 1);
    h.host.send({ type: "extension_ui_response", id: d2.id, cancelled: true });
    await h.host.waitFor((f) => f.type === "agent_end");
    expect(resultsSeen(h.calls)).toEqual([
      { text: "Permission denied: edit did not run. The user denied this call.", isError: true },
      { text: "Permission denied: edit did not run. The approval dialog was cancelled, so the call was denied.", isError: true },
    ]);
    expect(h.tools[0].log).toEqual([]);
    h.host.end();
    await h.served;
  });

  it("a timeout denies and tells the host to close the dialog", async () => {
    const h = start([call("e1", "edit", { path: "x" }), text("done")], { mode: "ask", timeoutMs: 20 });
    await ask(h.host, { id: "p", type: "prompt", message: "go" });
    const d = await dialog(h.host);
    expect(d.timeout).toBe(20);
    const cancel = await h.host.waitFor((f) => f.method === "cancel");
    expect(cancel.targetId).toBe(d.id);
    await h.host.waitFor((f) => f.type === "agent_end");
    expect(resultsSeen(h.calls)[0].text).toBe("Permission denied: edit did not run. Nobody answered the approval dialog in time, so the call was denied.");
    h.host.end();
    await h.served;
  });

  it("stdin EOF while a dialog is open denies the call and the run finishes", async () => {
    const h = start([call("e1", "edit", { path: "x" }), text("done")], { mode: "ask-writes" });
    await ask(h.host, { id: "p", type: "prompt", message: "go" });
    await dialog(h.host);
    h.host.end();
    expect(await h.served).toBe(0);
    expect(resultsSeen(h.calls)[0].text).toBe(
      "Permission denied: edit did not run. The host closed its input before answering the approval dialog, so the call was denied.",
    );
  });

  it("abort while a dialog is open closes it (cancel frame), denies the call and ends the run", async () => {
    const h = start([call("e1", "edit", { path: "x" }), text("never")], { mode: "ask-writes" });
    await ask(h.host, { id: "p", type: "prompt", message: "go" });
    const d = await dialog(h.host);
    await ask(h.host, { id: "a", type: "abort" });
    const cancel = await h.host.waitFor((f) => f.method === "cancel");
    expect(cancel.targetId).toBe(d.id);
    const end = await h.host.waitFor((f) => f.type === "tool_execution_end");
    expect(end).toMatchObject({ toolCallId: "e1", isError: true });
    expect(h.tools[0].log).toEqual([]);
    await h.host.waitFor((f) => f.type === "agent_end");
    h.host.end();
    await h.served;
  });

  it("Allow always is the project's grant, not the session file's: it holds across new_session and switch_session", async () => {
    const h = start([call("e1", "edit", { path: "src/a.ts" }), text("one"), call("e2", "edit", { path: "src/a.ts" }), text("two"), text("new"), call("e3", "edit", { path: "src/a.ts" }), text("three")], {
      mode: "ask-writes",
    });
    await ask(h.host, { id: "p1", type: "prompt", message: "go" });
    const d = await dialog(h.host);
    h.host.send({ type: "extension_ui_response", id: d.id, value: "Allow always" });
    await h.host.waitFor((f) => f.type === "agent_end");
    const state = await ask(h.host, { id: "s1", type: "get_state" });
    expect(state.data.permissions).toEqual({ mode: "ask-writes", allow: [], ask: [], deny: [], sessionAllow: ["edit(src/a.ts)"] });
    expect(state.data.sandbox).toEqual({ mode: "off", network: false, writableRoots: [] });
    const file = state.data.sessionFile as string;
    expect(readFileSync(file, "utf8")).not.toContain("pith:permission_allow");
    // the same edit again: no dialog
    const before = h.host.frames.length;
    await ask(h.host, { id: "p2", type: "prompt", message: "again" });
    await h.host.waitFor((f) => f.type === "agent_end", before);
    expect(h.host.frames.slice(before).some((f: any) => f.method === "select")).toBe(false);
    // a new session of the same project has it; so has the first one switched back to
    await ask(h.host, { id: "n", type: "new_session" });
    expect((await ask(h.host, { id: "s2", type: "get_state" })).data.permissions.sessionAllow).toEqual(["edit(src/a.ts)"]);
    await ask(h.host, { id: "sw", type: "switch_session", sessionPath: file });
    expect((await ask(h.host, { id: "s3", type: "get_state" })).data.permissions.sessionAllow).toEqual(["edit(src/a.ts)"]);
    // the host revokes it
    const revoked = await ask(h.host, { id: "rv", type: "set_permissions", rules: { sessionAllow: [] } });
    expect(revoked.data.sessionAllow).toEqual([]);
    h.host.end();
    await h.served;
  });

  it("deny rules apply to any tool by its full name, without asking; set_permissions validates and replaces", async () => {
    const h = start([call("m1", "mcp__srv__drop", {}), text("done")]);
    const bad = await ask(h.host, { id: "bad", type: "set_permissions", rules: { deny: ["bash(ok)", "edit(src/**"] } });
    expect(bad).toMatchObject({ success: false, error: expect.stringContaining('rules.deny[1]: rule "edit(src/**": missing ")" at the end') });
    const ok = await ask(h.host, { id: "ok", type: "set_permissions", rules: { mode: "ask", deny: ["mcp__srv"], allow: ["read"] } });
    expect(ok.data).toEqual({ mode: "ask", allow: ["read"], ask: [], deny: ["mcp__srv"], sessionAllow: [] });
    await ask(h.host, { id: "p", type: "prompt", message: "go" });
    await h.host.waitFor((f) => f.type === "agent_end");
    expect(resultsSeen(h.calls)[0]).toEqual({ text: 'Permission denied: mcp__srv__drop did not run. The deny rule "mcp__srv" matches this call.', isError: true });
    expect(h.host.frames.some((f: any) => f.method === "select")).toBe(false);
    h.host.end();
    await h.served;
  });
});
