// `pith serve` end to end: the built CLI listening on 127.0.0.1, hosts over WebSockets.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RpcClient } from "../../src/client/index.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";
import { Served, TOKEN, WsHost, tryUpgrade } from "./serve-harness.js";

const llm = useFakeLlm();
const piths = trackPiths();
const hosts: WsHost[] = [];
afterEach(() => {
  for (const h of hosts.splice(0)) h.ws.terminate();
});

async function connect(served: Served): Promise<WsHost> {
  const host = await WsHost.connect(served.url);
  hosts.push(host);
  return host;
}

/** A frame with what differs between two runs left out: ids, times, session names and files. */
function shape(frame: Frame): unknown {
  const VARYING = new Set(["id", "timestamp", "sessionId", "messageId", "promptId", "responseId", "durationMs", "sinceActivityMs", "sessionFile", "duration", "ttft"]);
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([k]) => !VARYING.has(k)).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  return strip(frame);
}

describe("pith serve", () => {
  let served: Served;
  beforeAll(async () => {
    served = await Served.start(llm.url, ["--allow-origin", "https://ide.example"]);
  });
  afterAll(() => {
    if (served.child.exitCode === null) served.child.kill("SIGKILL");
  });

  it("refuses upgrades without the token, with a wrong one, or from an origin not allowed; logs no token", async () => {
    expect(await tryUpgrade(served.url)).toBe(401);
    expect(await tryUpgrade(served.url, { Authorization: "Bearer wrong-token-wrong-token" })).toBe(401);
    expect(await tryUpgrade(`${served.url}/?token=wrong-token-wrong-token`)).toBe(401);
    expect(await tryUpgrade(served.url, { Authorization: `Bearer ${TOKEN}`, Origin: "https://evil.example" })).toBe(403);
    expect(await tryUpgrade(served.url, { Authorization: `Bearer ${TOKEN}`, Origin: "https://ide.example" })).toBe("open");
    expect(await tryUpgrade(`${served.url}/?token=${TOKEN}`)).toBe("open");
    // a refused origin is refused whatever the token
    expect(await tryUpgrade(`${served.url}/?token=${TOKEN}`, { Origin: "null" })).toBe(403);
    await served.waitForStderr(/refused a connection from 127\.0\.0\.1: 403 origin "null"/);
    expect(served.stderr).toContain("401 wrong token");
    expect(served.stderr).not.toContain("wrong-token-wrong-token");
    expect(served.stderr).not.toContain(TOKEN);
    expect(await served.get("/healthz")).toBe(200);
    expect(await served.get("/readyz")).toBe(200);
  });

  it("streams a scripted prompt as the same frame sequence as --mode rpc over stdio", async () => {
    const reply = { text: ["Hello", " from", " the", " model"], usage: { input: 10, output: 4 } };
    llm.enqueue(reply);
    const host = await connect(served);
    const ready = host.frames[0];
    expect(ready).toMatchObject({ type: "ready", supportedProtocolVersions: [1], transport: "websocket" });
    const overWs = await host.promptAndSettle("say hello");

    llm.enqueue(reply);
    const stdio = await Pith.start({ cwd: served.cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    piths.push(stdio);
    const from = stdio.frames.length;
    await stdio.request({ type: "prompt", message: "say hello" });
    await stdio.waitFor((f) => f.type === "agent_settled", 30_000, from);
    const overStdio = stdio.frames.slice(from);

    expect(overWs.map((f) => f.type)).toContain("message_update");
    expect(overWs.map(shape)).toEqual(overStdio.map(shape));
    const [wsReq, stdioReq] = llm.requests.slice(-2);
    expect(wsReq.body.messages).toEqual(stdioReq.body.messages);
  });

  it("runs prompts of two connections at once, each in its own session", async () => {
    const [a, b] = await Promise.all([connect(served), connect(served)]);
    const ask = (who: string) => ({ text: [`answer `, `for ${who}`], chunkDelayMs: 30, match: (r: { body: any }) => JSON.stringify(r.body).includes(`from ${who}`) });
    llm.enqueue(ask("A"), ask("B"));
    const [fa, fb] = await Promise.all([a.promptAndSettle("hello from A"), b.promptAndSettle("hello from B")]);
    const text = (frames: Frame[]) => frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").map((f) => f.message.content[0].text);
    expect(text(fa)).toEqual(["answer for A"]);
    expect(text(fb)).toEqual(["answer for B"]);
    const [sa, sb] = await Promise.all([a.request({ type: "get_state" }), b.request({ type: "get_state" })]);
    expect(sa.data.sessionId).not.toBe(sb.data.sessionId);
    expect(sa.data.sessionFile).not.toBe(sb.data.sessionFile);
  });

  it("a connection dropped mid-run leaves its session complete and unlocked; another connection switches to it and continues", async () => {
    const a = await connect(served);
    llm.enqueue({ text: ["partial ", "answer ", "never ", "finished"], chunkDelayMs: 400 });
    await a.request({ type: "prompt", message: "first question" });
    await a.waitFor((f) => f.type === "message_update");
    const file = (await a.request({ type: "get_state" })).data.sessionFile as string;
    const closedBefore = served.stderr.split("connection closed").length;
    a.ws.terminate();
    // logged once the connection's run is aborted and its sessions flushed, closed and unlocked
    await served.waitForStderr(new RegExp(`(connection closed[^]*){${closedBefore}}`));
    expect(existsSync(`${file}.lock`)).toBe(false);
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    const entries = lines.map((l) => JSON.parse(l));
    expect(JSON.stringify(entries)).toContain("first question");

    const b = await connect(served);
    expect((await b.request({ type: "switch_session", sessionPath: file })).success).toBe(true);
    llm.enqueue({ text: "continued" });
    await b.promptAndSettle("second question");
    const sent = JSON.stringify(llm.requests.at(-1)!.body.messages);
    expect(sent).toContain("first question");
    expect(sent).toContain("second question");
    await b.request({ type: "get_state" });
    expect(readFileSync(file, "utf8")).toContain("continued");
  });
});

describe("pith serve stays up and bounded", () => {
  const started: Served[] = [];
  afterEach(() => {
    for (const s of started.splice(0)) if (s.child.exitCode === null) s.child.kill("SIGKILL");
  });

  it("SIGTERM during a run stops accepting, lets the run finish, closes with 1001 and exits 0", async () => {
    const served = await Served.start(llm.url, ["--drain-timeout", "20"]);
    started.push(served);
    const host = await connect(served);
    llm.enqueue({ text: ["one ", "two ", "three ", "four"], chunkDelayMs: 250 });
    const from = host.frames.length;
    await host.request({ type: "prompt", message: "count" });
    await host.waitFor((f) => f.type === "message_update", 15_000, from);
    served.child.kill("SIGTERM");
    await served.waitForStderr(/draining 1 connection/);
    expect(await served.get("/readyz")).toBe(503);
    expect(await served.get("/healthz")).toBe(200);
    expect(await tryUpgrade(served.url, { Authorization: `Bearer ${TOKEN}` })).toBe(503);
    const closed = await host.closed;
    expect(closed.code).toBe(1001);
    const end = host.frames.find((f) => f.type === "message_end" && f.message.role === "assistant");
    expect(end?.message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "one two three four" }] });
    expect(host.frames.find((f) => f.type === "prompt_result")).toMatchObject({ status: "completed" });
    expect(await served.exited).toEqual({ code: 0, signal: null });
  });

  it("a client that never reads is disconnected at the outbound bound; pith's memory stays bounded", async () => {
    const served = await Served.start(llm.url, ["--max-outbound-bytes", String(1024 * 1024), "--send-timeout", "2"]);
    started.push(served);
    const host = await connect(served);
    const before = served.memory().rss;
    // the client stops reading, then asks for far more than the socket buffers hold: a prompt of
    // 512 KiB, then the session's messages (that prompt included) 80 times, about 40 MiB of frames
    (host.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    llm.enqueue({ text: "ok" });
    const asked = llm.requests.length;
    host.send({ id: "p", type: "prompt", message: "x".repeat(512 * 1024) });
    // the provider was asked: the prompt is in the session
    await llm.waitForRequests(asked + 1, 15_000);
    for (let i = 0; i < 80; i++) host.send({ id: `m${i}`, type: "get_messages" });
    await served.waitForStderr(/left \d+ bytes unread \((bound 1048576 bytes|read nothing for 2000 ms)\); disconnecting it/, 30_000);
    await served.waitForStderr(/connection closed/);
    const { peak } = served.memory();
    // docs/serve.md: a reader that stops costs at most 96 MiB above the process with one idle connection
    expect(peak - before).toBeLessThan(96 * 1024 * 1024);
    // the process serves on
    expect(await served.get("/readyz")).toBe(200);
    const next = await connect(served);
    expect((await next.request({ type: "get_state" })).success).toBe(true);
  });

  it("refuses to listen on a non-loopback address without a token; serves a Unix socket", async () => {
    const home = tempDir("pith-home-");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home };
    const open = spawnSync(process.execPath, [CLI, "serve", "--listen", "ws://0.0.0.0:0"], { env, cwd: home, encoding: "utf8", timeout: 15_000 });
    expect(open.status).toBe(2);
    expect(open.stderr).toMatch(/refuses to listen on ws:\/\/0\.0\.0\.0:0 without a token/);
    const sock = path.join(home, "pith.sock");
    const child = spawn(process.execPath, [CLI, "serve", "--listen", `unix:${sock}`, "--provider", "fake-openai", "--model", "fake-gpt"], { env, cwd: home, stdio: ["ignore", "pipe", "pipe"] });
    const served = new Served(child as never, home, home);
    started.push(served);
    writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
    const url = (await served.waitForStderr(/connect with (ws\+unix:\S+)/))[1];
    expect(statSync(sock).mode & 0o777).toBe(0o600);
    const client = await RpcClient.connect(url);
    const refused = await RpcClient.connect(`ws+unix:${sock}:/`).catch((e) => e);
    expect(String(refused)).toMatch(/HTTP 401/);
    expect((await client.getState()).isStreaming).toBe(false);
    await client.close();
  });
});
