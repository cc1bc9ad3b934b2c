// MCP servers end to end: the built CLI in RPC mode, real SDK-built MCP servers
// (test/support/mcp/: stdio, and streamable HTTP on 127.0.0.1) and the scripted SSE model.
// Assertions are on the frames pith writes AND on what the fake model received (tools offered,
// tool results sent back).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RpcClient, RpcError } from "../../src/client/index.js";
import { alive, startHttpFixture, stdioFixture, type HttpFixture } from "../support/mcp-fakes.js";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { PNG_1X1 } from "../support/mcp/fixture-tools.mjs";
import { CLI, Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();
let http: HttpFixture;

beforeAll(async () => {
  http = await startHttpFixture("--name", "web");
});
afterAll(async () => {
  await http?.stop();
});

interface StartMcp {
  /** `mcpServers` of the global settings. */
  servers?: Record<string, unknown>;
  /** `mcp` of the global settings. */
  mcp?: Record<string, unknown>;
  /** The project's `.mcp.json` (`mcpServers`). */
  mcpJson?: Record<string, unknown>;
  /** pith's extra environment. */
  env?: Record<string, string>;
  /** Start with --trust-project (the folder's .mcp.json loads). */
  trust?: boolean;
}

async function start(o: StartMcp = {}): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  const cwd = tempDir("pith-cwd-");
  const settings: Frame = {};
  if (o.servers) settings.mcpServers = o.servers;
  if (o.mcp) settings.mcp = o.mcp;
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify(settings));
  if (o.mcpJson) writeFileSync(path.join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: o.mcpJson }));
  const args = ["--provider", "fake-openai", "--model", "fake-gpt", ...(o.trust ? ["--trust-project"] : [])];
  const p = await Pith.start({ pithHome, cwd, env: o.env, modelsJson: fakeModelsJson(llm.url), args });
  open.push(p);
  return p;
}

/** Model calls only (live model discovery also sends `GET /models` to the fake). */
const chats = (): FakeRequest[] => llm.requests.filter((r) => r.method === "POST");
const offered = (req: FakeRequest): string[] => (req.body.tools ?? []).map((t: Frame) => t.function.name);

/** The `role:"tool"` messages of one chat-completions request, by tool call id. */
function toolResults(req: FakeRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of req.body.messages.filter((m: Frame) => m.role === "tool")) {
    out[m.tool_call_id] = typeof m.content === "string" ? m.content : m.content.map((b: Frame) => b.text ?? "").join("");
  }
  return out;
}

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({ id, name, arguments: args });

/** Polls get_mcp_servers until `pred` holds for the server `name`. */
async function serverWhen(p: Pith, name: string, pred: (s: Frame) => boolean, ms = 15_000): Promise<Frame> {
  const end = Date.now() + ms;
  for (;;) {
    const res = await p.request({ type: "get_mcp_servers" });
    expect(res.success).toBe(true);
    const s = res.data.servers.find((x: Frame) => x.name === name);
    if (s && pred(s)) return s;
    if (Date.now() > end) throw new Error(`server ${name} never matched; last: ${JSON.stringify(res.data.servers)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One prompt whose model turn makes `calls`, then answers `done`; returns the frames and the follow-up request. */
async function runCalls(p: Pith, calls: ReturnType<typeof call>[]): Promise<{ frames: Frame[]; followUp: FakeRequest; first: FakeRequest }> {
  const before = chats().length;
  if (calls.length > 0) llm.enqueue({ toolCalls: calls }, { text: "done" });
  else llm.enqueue({ text: "done" });
  const frames = await p.promptAndWait("use the MCP tools", {}, 60_000);
  const [first, followUp] = chats().slice(before, before + 2);
  return { frames, followUp, first };
}

describe("MCP servers through the built CLI", () => {
  it("offers stdio and HTTP servers' tools and returns echo, image, isError and progress results to the model", async () => {
    const fx = { ...stdioFixture("fx"), env: { GREETING: "${FX_GREETING}" } };
    const env = { FX_GREETING: "hello from settings", OPENAI_API_KEY: "sk-must-not-leak" };
    const p = await start({ servers: { fx, web: { type: "http", url: http.url("/mcp") } }, env });
    const { frames, first, followUp } = await runCalls(p, [
      call("c_var", "mcp__fx__env", { name: "GREETING" }),
      call("c_key", "mcp__fx__env", { name: "OPENAI_API_KEY" }),
      call("c_echo", "mcp__fx__echo", { text: "hi" }),
      call("c_image", "mcp__fx__image"),
      call("c_fail", "mcp__fx__fail", { message: "it broke" }),
      call("c_progress", "mcp__fx__progress", { steps: 3 }),
      call("c_web", "mcp__web__echo", { text: "over http" }),
      call("c_res", "mcp__fx__resources"),
    ]);
    // The first prompt waited for both servers: their tools were offered with the servers' schemas.
    expect(offered(first)).toEqual(expect.arrayContaining(["mcp__fx__echo", "mcp__fx__hang", "mcp__web__echo", "read", "bash"]));
    const echo = first.body.tools.find((t: Frame) => t.function.name === "mcp__fx__echo");
    expect(echo.function).toMatchObject({ description: "Echoes text back", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } });

    const results = toolResults(followUp);
    expect(results.c_var).toBe("hello from settings"); // ${VAR} expanded from pith's environment
    expect(results.c_key).toBe("(unset)"); // pith's credentials never reach a server
    expect(results.c_echo).toBe("fx: hi");
    expect(results.c_image).toContain("a 1x1 png");
    expect(results.c_fail).toContain("it broke");
    expect(results.c_progress).toBe("done after 3 steps");
    expect(results.c_web).toBe("web: over http");
    expect(results.c_res).toContain("the notes"); // an embedded text resource becomes its text
    expect(results.c_image).toContain(PNG_1X1); // the image itself reaches the model, not a description

    const end = (id: string) => frames.find((f) => f.type === "tool_execution_end" && f.toolCallId === id);
    expect(end("c_fail")).toMatchObject({ isError: true, toolName: "mcp__fx__fail" });
    expect(end("c_echo")).toMatchObject({ isError: false, result: { content: [{ type: "text", text: "fx: hi" }] } });
    expect(end("c_image")?.result.content).toContainEqual(expect.objectContaining({ type: "image", mimeType: "image/png" }));
    const updates = frames.filter((f) => f.type === "tool_execution_update" && f.toolCallId === "c_progress");
    expect(updates.length).toBe(3);
    expect(updates[0]).toMatchObject({ toolName: "mcp__fx__progress", partialResult: { content: [{ type: "text", text: expect.stringContaining("step 1") }] } });

    const servers = (await p.request({ type: "get_mcp_servers" })).data.servers;
    expect(servers).toEqual([
      { name: "fx", source: "global", status: "connected", tools: expect.arrayContaining(["mcp__fx__echo", "mcp__fx__crash"]) },
      { name: "web", source: "global", status: "connected", tools: expect.arrayContaining(["mcp__web__echo"]) },
    ]);
    expect(p.stderr).not.toContain("fixture fx ready"); // server stderr goes to the MCP log, not to pith's
    expect(await p.close()).toBe(0);
  });

  it("the first prompt waits for servers still starting, but never beyond mcp.startupTimeoutMs", async () => {
    const p = await start({
      servers: { slow: stdioFixture("slow", "--start-delay-ms", "500"), stalled: stdioFixture("stalled", "--never-initialize") },
      mcp: { startupTimeoutMs: 6000 },
    });
    const before = (await p.request({ type: "get_mcp_servers" })).data.servers;
    expect(before.map((s: Frame) => s.status)).toEqual(["connecting", "connecting"]);
    // Prompted at once: the slow server is still starting, the stalled one never answers. The
    // prompt waits for the first and gives up on the second after the startup timeout.
    const { first } = await runCalls(p, []);
    expect(offered(first)).toContain("mcp__slow__echo");
    expect(offered(first).some((n) => n.startsWith("mcp__stalled__"))).toBe(false);
    const servers = (await p.request({ type: "get_mcp_servers" })).data.servers;
    expect(servers[0]).toEqual({ name: "slow", source: "global", status: "connected", tools: expect.arrayContaining(["mcp__slow__echo"]) });
    // The stalled server failed at the timeout; the prompt then started one background retry (at most once a minute).
    expect(servers[1]).toMatchObject({ name: "stalled", status: expect.stringMatching(/^(failed|connecting)$/), tools: [] });
    expect(await p.close()).toBe(0);
  });

  it("abort during a hanging tool ends the call at once, sends MCP cancellation, and the server stays usable", async () => {
    const p = await start({ servers: { fx: stdioFixture("fx") } });
    llm.enqueue({ toolCalls: [call("c_hang", "mcp__fx__hang")] });
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: "hang" })).success).toBe(true);
    // the call is running on the server (its progress update arrived), so the abort must cancel it there
    await p.waitFor((f) => f.type === "tool_execution_update" && f.toolCallId === "c_hang", 30_000, from);
    const t0 = Date.now();
    const res = await p.request({ type: "abort" }, 5_000);
    const abortMs = Date.now() - t0;
    expect(res.success).toBe(true);
    console.log(`abort of the hanging MCP tool answered in ${abortMs} ms`);
    const end = await p.waitFor((f) => f.type === "tool_execution_end" && f.toolCallId === "c_hang", 5_000, from);
    expect(end.isError).toBe(true);
    expect(end.result.content[0].text).toContain("aborted");

    const { followUp } = await runCalls(p, [call("c_count", "mcp__fx__cancellations"), call("c_echo", "mcp__fx__echo", { text: "still here" })]);
    expect(toolResults(followUp)).toMatchObject({ c_count: "1", c_echo: "fx: still here" });
    expect(await p.close()).toBe(0);
  });

  it("mcp.toolTimeoutMs bounds a call: the hanging tool is cancelled with an error that says so", async () => {
    const p = await start({ servers: { fx: stdioFixture("fx") }, mcp: { toolTimeoutMs: 1000 } });
    const { frames, followUp } = await runCalls(p, [call("c_hang", "mcp__fx__hang")]);
    expect(toolResults(followUp).c_hang).toBe('MCP tool "hang" on server "fx" did not answer within 1 s; the call was cancelled');
    expect(frames.find((f) => f.type === "tool_execution_end")).toMatchObject({ toolCallId: "c_hang", isError: true });
    expect(await p.close()).toBe(0);
  });

  it("a crashing server gives a tool error that says so and is restarted on the next call", async () => {
    const p = await start({ servers: { fx: stdioFixture("fx") } });
    const pid1 = (await runCalls(p, [call("c_pid1", "mcp__fx__pid")])).followUp;
    const first = Number(toolResults(pid1).c_pid1);
    const crash = await runCalls(p, [call("c_crash", "mcp__fx__crash")]);
    expect(toolResults(crash.followUp).c_crash).toMatch(/MCP server "fx" failed during the call to "crash".*restarted/);
    await serverWhen(p, "fx", (s) => s.status === "failed" || s.status === "connecting" || s.status === "connected");
    const again = await runCalls(p, [call("c_pid2", "mcp__fx__pid"), call("c_echo", "mcp__fx__echo", { text: "back" })]);
    const results = toolResults(again.followUp);
    expect(results.c_echo).toBe("fx: back");
    expect(Number(results.c_pid2)).not.toBe(first);
    expect(alive(first)).toBe(false);
    expect(await p.close()).toBe(0);
  });

  it("set_mcp_servers / get_mcp_servers over RPC: host servers connect, their tools reach the model, bad input is refused", async () => {
    const p = await start();
    expect(await p.request({ type: "get_mcp_servers" })).toMatchObject({ success: true, data: { servers: [] } });
    const bad = await p.request({ type: "set_mcp_servers", servers: { broken: { type: "stdio", args: ["x"] } } });
    expect(bad).toMatchObject({ success: false, command: "set_mcp_servers", error: expect.stringContaining("mcpServers.broken.command") });
    const notObject = await p.request({ type: "set_mcp_servers", servers: ["x"] });
    expect(notObject).toMatchObject({ success: false, error: 'Invalid "servers": expected object' });

    const set = await p.request({ type: "set_mcp_servers", servers: { hosted: stdioFixture("hosted"), remote: { type: "http", url: http.url("/mcp") } } });
    expect(set).toMatchObject({ success: true, data: { servers: [{ name: "hosted", source: "host" }, { name: "remote", source: "host" }] } });
    const { first, followUp } = await runCalls(p, [call("c1", "mcp__hosted__echo", { text: "from host" }), call("c2", "mcp__remote__echo", { text: "r" })]);
    expect(offered(first)).toEqual(expect.arrayContaining(["mcp__hosted__echo", "mcp__remote__echo"]));
    expect(toolResults(followUp)).toEqual({ c1: "hosted: from host", c2: "web: r" });
    expect((await p.request({ type: "get_mcp_servers" })).data.servers).toEqual([
      { name: "hosted", source: "host", status: "connected", tools: expect.arrayContaining(["mcp__hosted__echo"]) },
      { name: "remote", source: "host", status: "connected", tools: expect.arrayContaining(["mcp__remote__echo"]) },
    ]);

    // The tool list follows notifications/tools/list_changed.
    await runCalls(p, [call("c3", "mcp__hosted__add_tool", { name: "extra" })]);
    await serverWhen(p, "hosted", (s) => s.tools.includes("mcp__hosted__extra"));
    const added = await runCalls(p, [call("c4", "mcp__hosted__extra")]);
    expect(offered(added.first)).toContain("mcp__hosted__extra");
    expect(toolResults(added.followUp).c4).toBe("extra is here");

    // {} removes them.
    expect(await p.request({ type: "set_mcp_servers", servers: {} })).toMatchObject({ success: true, data: { servers: [] } });
    const state = await p.request({ type: "get_state" });
    expect(state.success).toBe(true);
    expect(await p.close()).toBe(0);
  });

  it("a project .mcp.json is ignored in an untrusted folder (said once on stderr); trusted, it starts unless the global mcp.projectServers limits it", async () => {
    const mcpJson = { proj: stdioFixture("proj") };
    const p = await start({ mcpJson });
    expect((await p.request({ type: "get_mcp_servers" })).data.servers).toEqual([]);
    const { first } = await runCalls(p, []);
    expect(offered(first).some((n) => n.startsWith("mcp__"))).toBe(false);
    expect(await p.close()).toBe(0);
    expect(p.stderr.match(/is not a trusted folder; its project layer was ignored \(MCP servers: proj \(\.mcp\.json\)\)/g)).toHaveLength(1);

    const q = await start({ mcpJson, trust: true });
    expect(q.stderr).not.toContain("not started");
    const s = await serverWhen(q, "proj", (x) => x.status === "connected");
    expect(s).toMatchObject({ source: "mcp-json", tools: expect.arrayContaining(["mcp__proj__echo"]) });
    expect(await q.close()).toBe(0);

    // the user's global settings may still limit a trusted folder's servers
    const r = await start({ mcpJson, trust: true, mcp: { projectServers: ["other"] } });
    const servers = (await r.request({ type: "get_mcp_servers" })).data.servers;
    expect(servers).toEqual([{ name: "proj", source: "mcp-json", status: "disabled", error: expect.stringContaining("mcp.projectServers"), tools: [] }]);
    expect(r.stderr.match(/MCP project servers not started: proj/g)).toHaveLength(1);
    expect(await r.close()).toBe(0);
  });

  for (const how of ["stdin EOF", "SIGTERM"] as const) {
    it(`leaves no MCP server process (nor its children) behind after ${how}`, async () => {
      const p = await start({ servers: { fx: stdioFixture("fx") } });
      const { followUp } = await runCalls(p, [call("c_pid", "mcp__fx__pid"), call("c_child", "mcp__fx__spawn_child")]);
      const results = toolResults(followUp);
      const pids = [Number(results.c_pid), Number(results.c_child.match(/\d+/)?.[0])];
      for (const pid of pids) expect(alive(pid)).toBe(true);
      if (how === "stdin EOF") expect(await p.close()).toBe(0);
      else {
        p.child.kill("SIGTERM");
        expect(await p.exited).toMatchObject({ code: 143 });
      }
      const end = Date.now() + 10_000;
      while (pids.some(alive) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(pids.filter(alive)).toEqual([]);
    });
  }

  it("print mode starts the same servers, the model gets their results, and they end with pith; their stderr goes to PITH_HOME/logs/mcp.log", async () => {
    const home = tempDir("pith-home-");
    const cwd = tempDir("pith-cwd-");
    writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
    writeFileSync(path.join(home, "settings.json"), JSON.stringify({ mcpServers: { fx: stdioFixture("fx") } }));
    const before = chats().length;
    llm.enqueue({ toolCalls: [call("c_pid", "mcp__fx__pid")] }, { text: "final answer" });
    const child = spawn(process.execPath, [CLI, "-p", "use the pid tool", "--provider", "fake-openai", "--model", "fake-gpt"], {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect({ code, stderr: Buffer.concat(err).toString("utf8") }).toEqual({ code: 0, stderr: "" });
    expect(Buffer.concat(out).toString("utf8")).toBe("final answer\n");
    const pid = Number(toolResults(chats()[before + 1]).c_pid);
    expect(pid).toBeGreaterThan(0);
    const end = Date.now() + 10_000;
    while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    const log = readFileSync(path.join(home, "logs", "mcp.log"), "utf8");
    expect(log).toMatch(/\[fx\] fixture fx ready pid=\d+/);
    expect(log).toContain("[fx] pith: connected");
  });

  it("the TypeScript client's setMcpServers / getMcpServers drive the built CLI", async () => {
    const home = tempDir("pith-home-");
    const client = new RpcClient({ cliPath: CLI, cwd: tempDir("pith-cwd-"), env: { PATH: process.env.PATH, HOME: home, PITH_HOME: home } });
    await client.start();
    try {
      expect(await client.getMcpServers()).toEqual({ servers: [] });
      const set = await client.setMcpServers({ ts: stdioFixture("ts") });
      expect(set.servers).toEqual([{ name: "ts", source: "host", status: "connecting", tools: [] }]);
      const end = Date.now() + 15_000;
      let status = set.servers[0];
      while (status.status === "connecting" && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await client.getMcpServers()).servers[0];
      }
      expect(status).toMatchObject({ status: "connected", tools: expect.arrayContaining(["mcp__ts__echo"]) });
      await expect(client.setMcpServers({ ts: { type: "sse" } })).rejects.toThrow(RpcError);
    } finally {
      await client.close();
    }
  });
});
