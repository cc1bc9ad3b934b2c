// The TypeScript client's session methods against the built CLI with the scripted
// provider: list/entries/tree/open/delete, and session handles running two sessions at once.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient, RpcError } from "../../src/client/index.js";
import { treeFromEntries, type TreeEntry } from "../../src/client/entry-tree.js";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli.js");
const open: RpcClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});
const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

/** pith on the scripted provider; `settings` is written as the global settings.json. */
async function startPith(replies: object[], extraArgs: string[] = [], settings?: object): Promise<RpcClient> {
  const cwd = temp("pith-client-cwd-");
  const home = temp("pith-client-home-");
  writeFileSync(path.join(cwd, "script.json"), JSON.stringify({ replies }));
  if (settings) writeFileSync(path.join(home, "settings.json"), JSON.stringify(settings));
  const client = new RpcClient({ cliPath: CLI, cwd, env: { PATH: process.env.PATH, HOME: home, PITH_HOME: home }, args: ["--provider", "scripted", "--model", "script.json", ...extraArgs] });
  open.push(client);
  await client.start();
  return client;
}

const textOf = (m: any) => (typeof m.content === "string" ? m.content : m.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join(""));

describe("RpcClient session methods", () => {
  it("lists, reads, opens and deletes sessions", async () => {
    const client = await startPith([{ text: "Stored." }]);
    await client.promptAndWait("Remember this");
    const { sessionFile } = await client.getState();
    const listed = await client.listSessions({ query: "REMEMBER" });
    expect(listed.sessions.map((s) => [s.path, s.messageCount, s.firstMessage])).toEqual([[sessionFile, 2, "Remember this"]]);
    const { entries, leafId } = await client.getEntries();
    expect(leafId).toBe((entries.at(-1) as any).id);
    expect((await client.getEntries((entries.at(-2) as any).id)).entries).toEqual(entries.slice(-1));
    await expect(client.getEntries("nope")).rejects.toBeInstanceOf(RpcError);
    expect((await client.getTree()).tree).toHaveLength(1);
    expect(await client.openSession(temp("pith-client-open-"))).toMatchObject({ cancelled: false, resumed: false });
    expect(await client.deleteSession(sessionFile as string)).toEqual({ path: sessionFile });
    expect(existsSync(sessionFile as string)).toBe(false);
  });

  it("session handles address their own session and see only its frames", async () => {
    const client = await startPith([{ text: "Answer from the script." }]);
    const first = client.session(undefined);
    const second = await client.newSessionHandle();
    const ends: Record<string, number> = { first: 0, second: 0 };
    first.on("agent_end", () => ends.first++);
    second.on("agent_end", () => ends.second++);
    const [a, b] = await Promise.all([first.promptAndWait("one", { timeoutMs: 30_000 }), second.promptAndWait("two", { timeoutMs: 30_000 })]);
    expect(textOf(a.find((m) => m.role === "user"))).toBe("one");
    expect(textOf(b.find((m) => m.role === "user"))).toBe("two");
    expect(ends).toEqual({ first: 1, second: 1 });
    const open = (await client.getOpenSessions()).sessions;
    expect(open.map((s) => [s.isDefault, s.sessionId])).toEqual([[true, expect.any(String)], [false, second.sessionId]]);
    expect((await second.getState()).messageCount).toBe(2);
    expect((await first.getMessages()).messages.map(textOf)).toEqual(["one", "Answer from the script."]);
    await second.close();
    await expect(second.getState()).rejects.toThrow(/is closed/);
  });

  it("each session handle registers and answers its own host tools; the client's stay the first session's", async () => {
    const call = { toolCalls: [{ name: "whoami", arguments: {} }] };
    const client = await startPith([call, { text: "done" }, call, { text: "done" }, call, { text: "done" }, call, { text: "done" }]);
    const def = { name: "whoami", description: "Names the session that answers", parameters: { type: "object" } };
    const answer = (who: string) => ({ ...def, execute: async () => ({ content: [{ type: "text" as const, text: `answered by ${who}` }] }) });
    await client.setHostTools([answer("the client (first session)")]);
    const second = await client.newSessionHandle();
    const third = await client.newSessionHandle();
    expect((await second.setHostTools([answer("second")])).toolNames).toEqual(["whoami"]);
    const resultsOf = (messages: any[]) => messages.filter((m) => m.role === "toolResult").map((m) => [textOf(m), m.isError]);
    expect(resultsOf(await second.promptAndWait("who?", { timeoutMs: 30_000 }))).toEqual([["answered by second", false]]);
    expect(resultsOf(await client.promptAndWait("who?", { timeoutMs: 30_000 }))).toEqual([["answered by the client (first session)", false]]);
    // a session that registered none has no such tool: the model's call fails inside pith, the client's executor is not borrowed
    const third3 = resultsOf(await third.promptAndWait("who?", { timeoutMs: 30_000 }));
    expect(third3).toHaveLength(1);
    expect(third3[0][0]).not.toContain("answered by");
    expect(third3[0][1]).toBe(true);
    // the first session's handle is the client's registry
    await client.session(undefined).setHostTools([answer("the first handle")]);
    expect(resultsOf(await client.promptAndWait("who?", { timeoutMs: 30_000 }))).toEqual([["answered by the first handle", false]]);
    await second.close();
  });

  it("each session handle answers its own dialogs (permission asks); the first session's and handler-less sessions' go to the client's handler", async () => {
    // permission mode ask: every bash call is a select dialog written by the session that runs it
    const call = { toolCalls: [{ name: "bash", arguments: { command: "echo ran" } }] };
    const client = await startPith([call, { text: "done" }, call, { text: "done" }], [], { permissions: { mode: "ask" } });
    const asked: string[] = [];
    // the first session's handle installs the client's handler
    client.session(undefined).onUiRequest(async (req) => {
      asked.push(`client:${req.sessionId ?? "first"}`);
      return { value: "Deny" };
    });
    const second = await client.newSessionHandle();
    const third = await client.newSessionHandle();
    second.onUiRequest(async (req) => {
      asked.push(`second:${req.sessionId}:${(req as any).permission?.toolName}`);
      return { value: "Allow once" };
    });
    const resultsOf = (messages: any[]) => messages.filter((m) => m.role === "toolResult").map((m) => [textOf(m).trim(), m.isError]);
    expect(resultsOf(await second.promptAndWait("run it", { timeoutMs: 30_000 }))).toEqual([["ran", false]]);
    const [denied] = resultsOf(await client.promptAndWait("run it", { timeoutMs: 30_000 }));
    expect(denied[0]).toMatch(/^Permission denied: bash did not run/);
    expect(resultsOf(await third.promptAndWait("run it", { timeoutMs: 30_000 }))[0][0]).toMatch(/^Permission denied/);
    expect(asked).toEqual([`second:${second.sessionId}:bash`, "client:first", `client:${third.sessionId}`]);
  });

  it("a dialog timeout aborts the signal of the handler that opened the dialog, and no other", async () => {
    const call = { toolCalls: [{ name: "bash", arguments: { command: "echo ran" } }] };
    const client = await startPith([call, { text: "done" }, call, { text: "done" }], [], { permissions: { mode: "ask", timeoutMs: 300 } });
    const events: string[] = [];
    /** Never answers: waits for pith's cancel (the dialog timeout) to abort the signal. */
    const waitForCancel = (who: string) => async (req: { sessionId?: string }, ctx: { signal: AbortSignal }) => {
      events.push(`${who} asked (${req.sessionId ?? "first"})`);
      await new Promise((r) => ctx.signal.addEventListener("abort", r));
      events.push(`${who} aborted: ${(ctx.signal.reason as Error).message}`);
      return { value: "Allow once" };
    };
    client.onUiRequest(waitForCancel("client"));
    const second = await client.newSessionHandle();
    second.onUiRequest(waitForCancel("second"));
    const denied = async (messages: Promise<any[]>) => (await messages).filter((m) => m.role === "toolResult").map((m) => m.isError);
    expect(await denied(second.promptAndWait("run it", { timeoutMs: 30_000 }))).toEqual([true]);
    expect(events).toEqual([`second asked (${second.sessionId})`, "second aborted: dialog cancelled by the agent"]);
    expect(await denied(client.promptAndWait("run it", { timeoutMs: 30_000 }))).toEqual([true]);
    expect(events.slice(2)).toEqual(["client asked (first)", "client aborted: dialog cancelled by the agent"]);
  });

  it("subagent frames and getSubagentMessages (oh-my-pi)", async () => {
    // Each session plays the script from its start: parent and subagent both get the task call
    // first (the explore subagent has no task tool: an error result), then "Done.".
    const task = { agent: "explore", tasks: [{ id: "look", description: "Look around", assignment: "List the files" }] };
    const client = await startPith([{ toolCalls: [{ name: "task", arguments: task }] }, { text: "Done." }]);
    const seen: string[] = [];
    client.on("subagent_lifecycle", (f) => seen.push(`lifecycle:${f.payload.status}`));
    client.on("subagent_progress", (f) => seen.push(`progress:${f.payload.progress.status}`));
    client.on("subagent_event", (f) => seen.push(`event:${f.payload.event.type}`));
    expect(await client.setSubagentSubscription("progress")).toEqual({ level: "progress" });
    await client.promptAndWait("Delegate", { timeoutMs: 60_000 });
    expect(seen[0]).toBe("lifecycle:started");
    expect(seen.slice(-2)).toEqual(["progress:completed", "lifecycle:completed"]);
    expect(seen.some((s) => s.startsWith("event:"))).toBe(false);
    expect(await client.getSubagents()).toEqual({ subagents: [] });
    const read = await client.getSubagentMessages({ subagentId: "look" });
    expect(read.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(textOf(read.messages[3])).toBe("Done.");
    expect(await client.getSubagentMessages({ sessionFile: read.sessionFile, fromByte: read.nextByte })).toMatchObject({ entries: [], messages: [], reset: false });
    await expect(client.getSubagentMessages({ subagentId: "nope" })).rejects.toBeInstanceOf(RpcError);
  });

  it("getTree nests a session deeper than pith answers as JSON from get_entries, exactly as pith nests a shallower one", async () => {
    const write = (turns: number): { file: string; ids: string[] } => {
      const folder = temp("pith-client-deep-");
      const file = path.join(folder, "deep.jsonl");
      const ids: string[] = [];
      const lines = [JSON.stringify({ type: "session", version: 1, id: "deep000000000000", timestamp: "2026-01-01T00:00:00.000Z", cwd: folder })];
      const add = (e: Record<string, unknown>) => {
        const id = `e${String(ids.length).padStart(7, "0")}`;
        lines.push(JSON.stringify({ type: e.type, id, parentId: ids.at(-1) ?? null, timestamp: "2026-01-01T00:00:00.000Z", ...e }));
        ids.push(id);
        return id;
      };
      for (let i = 0; i < turns; i++) {
        const asked = add({ type: "message", message: { role: "user", content: [{ type: "text", text: `q${i}` }], timestamp: 1 + i } });
        add({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `a${i}` }], api: "openai-completions", provider: "scripted", model: "script.json", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 1 + i } });
        if (i % 100 === 0) add({ type: "label", targetId: asked, label: `turn ${i}` });
      }
      writeFileSync(file, lines.join("\n") + "\n");
      return { file, ids };
    };
    const walk = (tree: any[]): Array<[string, number, string | undefined]> => {
      const out: Array<[string, number, string | undefined]> = [];
      const stack: Array<[any, number]> = tree.map((n) => [n, 1] as [any, number]).reverse();
      while (stack.length) {
        const [n, d] = stack.pop()!;
        out.push([n.entry.id, d, n.label]);
        for (const c of [...n.children].reverse()) stack.push([c, d + 1]);
      }
      return out;
    };

    const deep = write(1_500);
    const client = await startPith([], ["--session", deep.file]);
    await expect(client.request("get_tree", {})).rejects.toThrow(/too deep/);
    const built = await client.getTree();
    expect(built.leafId).toBe(deep.ids.at(-1));
    const nodes = walk(built.tree);
    expect(nodes.map(([id]) => id)).toEqual(deep.ids);
    expect(nodes.map(([, d]) => d)).toEqual(deep.ids.map((_, i) => i + 1));
    expect(nodes.filter(([, , l]) => l).map(([id, , l]) => [id, l]).slice(0, 2)).toEqual([[deep.ids[0], "turn 0"], [deep.ids[201], "turn 100"]]);

    const shallow = write(300);
    const other = await startPith([], ["--session", shallow.file]);
    const served = await other.request("get_tree", {});
    const { entries } = await other.getEntries();
    expect(walk(treeFromEntries(entries as TreeEntry[]))).toEqual(walk(served.tree));
  }, 60_000);
});
