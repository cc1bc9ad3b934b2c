// pi 0.87.1's own published RpcClient (dev dependency @earendil-works/pi-coding-agent) drives the
// built pith against the scripted SSE server: prompt, promptAndWait, waitForIdle, steer, follow-up
// and abort. Its waitForIdle and promptAndWait finish only on `agent_settled`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, fakeModelsJson, tempDir, useFakeLlm, type Frame } from "./harness.js";

const PI_CLIENT = path.resolve(CLI, "../../node_modules/@earendil-works/pi-coding-agent/dist/modes/rpc/rpc-client.js");
const llm = useFakeLlm();

interface PiRpcClient {
  start(): Promise<void>;
  stop(): Promise<void>;
  onEvent(listener: (event: Frame) => void): () => void;
  prompt(message: string): Promise<void>;
  steer(message: string): Promise<void>;
  followUp(message: string): Promise<void>;
  abort(): Promise<void>;
  getState(): Promise<Frame>;
  getMessages(): Promise<Frame[]>;
  waitForIdle(timeout?: number): Promise<void>;
  promptAndWait(message: string, images?: unknown[], timeout?: number): Promise<Frame[]>;
}

const clients: PiRpcClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.stop();
});

async function startPi(): Promise<{ client: PiRpcClient; events: Frame[] }> {
  const { RpcClient } = (await import(pathToFileURL(PI_CLIENT).href)) as { RpcClient: new (o: object) => PiRpcClient };
  const home = tempDir("pith-pi-home-");
  writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
  writeFileSync(path.join(home, "settings.json"), JSON.stringify({ retry: { baseDelayMs: 20 } }));
  const client = new RpcClient({
    cliPath: CLI,
    cwd: tempDir("pith-pi-cwd-"),
    provider: "fake-openai",
    model: "fake-gpt",
    env: { HOME: home, PITH_HOME: home },
  });
  clients.push(client);
  await client.start();
  const events: Frame[] = [];
  client.onEvent((e) => events.push(e));
  return { client, events };
}

const bash = (command: string): object => ({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command } }] });
const texts = (messages: Frame[], role: string) =>
  messages.filter((m) => m.role === role).map((m) => (Array.isArray(m.content) ? m.content.filter((b: Frame) => b.type === "text").map((b: Frame) => b.text).join("") : m.content));

describe("pi 0.87.1's RpcClient drives pith", () => {
  it("promptAndWait and prompt + waitForIdle finish on agent_settled, across a retry", async () => {
    const { client } = await startPi();
    llm.enqueue({ error: { status: 500, body: { error: { message: "internal server error" } } } }, { text: "hello from pith" }, { text: "second answer" });
    const events = await client.promptAndWait("hi", undefined, 30_000);
    expect(events.filter((e) => e.type === "agent_end")).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: "agent_settled" });
    expect(events.some((e) => e.type === "prompt_result" && e.status === "completed")).toBe(true);
    const idle = client.waitForIdle(30_000);
    await client.prompt("again");
    await idle;
    expect(texts(await client.getMessages(), "assistant")).toEqual(["hello from pith", "second answer"]);
    expect((await client.getState()).isStreaming).toBe(false);
  });

  it("steer and follow-up reach the run; abort ends it and waitForIdle returns", async () => {
    const { client, events } = await startPi();
    llm.enqueue(bash("sleep 1"), { text: "after the steer" }, { text: "after the follow-up" });
    const idle = client.waitForIdle(30_000);
    await client.prompt("start");
    while (!events.some((e) => e.type === "tool_execution_start")) await new Promise((r) => setTimeout(r, 20));
    await client.steer("please steer");
    await client.followUp("and follow up");
    await idle;
    const messages = await client.getMessages();
    expect(texts(messages, "user")).toEqual(["start", "please steer", "and follow up"]);
    expect(texts(messages, "assistant").slice(-2)).toEqual(["after the steer", "after the follow-up"]);

    llm.enqueue(bash("sleep 30"));
    const from = events.length;
    const stopped = client.waitForIdle(30_000);
    await client.prompt("sleep long");
    while (!events.slice(from).some((e) => e.type === "tool_execution_start")) await new Promise((r) => setTimeout(r, 20));
    await client.abort();
    await stopped;
    expect(events.slice(from).find((e) => e.type === "prompt_result")).toMatchObject({ status: "aborted" });
    expect((await client.getState()).isStreaming).toBe(false);
  });
});
