// pi 0.87.1's published RpcClient (a dev dependency; its client module runs on Node 20) drives the
// built pith through every command method it has, with pi's response shapes. Waiting for the end
// of a run the way pi's promptAndWait/waitForIdle do needs `agent_settled`; here
// runs are awaited through the event stream and get_state.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, fakeModelsJson, tempDir, useFakeLlm } from "./harness.js";
import { writeFileSync } from "node:fs";

const llm = useFakeLlm();
const PI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules/@earendil-works/pi-coding-agent");
const clients: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.stop();
});

async function startPi(): Promise<any> {
  const { RpcClient } = await import(pathToFileURL(path.join(PI_DIR, "dist/modes/rpc/rpc-client.js")).href);
  const home = tempDir("pith-pi-home-");
  writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url, { reasoning: true })));
  const client = new RpcClient({
    cliPath: CLI,
    cwd: tempDir("pith-pi-cwd-"),
    env: { HOME: home, PITH_HOME: home },
    provider: "fake-openai",
    model: "fake-gpt",
  });
  clients.push(client);
  await client.start();
  return client;
}

/** Waits for the run to end (agent_end, then get_state idle). */
async function runDone(client: any): Promise<void> {
  await new Promise<void>((resolve) => {
    const off = client.onEvent((e: any) => {
      if (e.type === "agent_end") {
        off();
        resolve();
      }
    });
  });
  for (;;) {
    if (!(await client.getState()).isStreaming) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("pi 0.87.1 RpcClient over pith", () => {
  it("calls every command method with pi's shapes", async () => {
    const client = await startPi();
    const state = await client.getState();
    expect(state).toMatchObject({ isStreaming: false, pendingMessageCount: 0, model: { id: "fake-gpt" } });
    expect((await client.getAvailableModels()).map((m: any) => m.id)).toContain("fake-gpt");
    expect(await client.getAvailableThinkingLevels()).toEqual(expect.arrayContaining(["off", "low", "high"]));
    await client.setThinkingLevel("high");
    expect(await client.cycleThinkingLevel()).toMatchObject({ level: expect.any(String) });
    await client.setSteeringMode("all");
    await client.setFollowUpMode("one-at-a-time");
    await client.setAutoCompaction(false);
    await client.setAutoRetry(true);
    await client.abortRetry();
    expect(await client.clearQueue()).toEqual({ steering: [], followUp: [] });

    llm.enqueue({ text: "Hello from pith." });
    const done = runDone(client);
    await client.prompt("hello");
    await done;
    expect(await client.getLastAssistantText()).toBe("Hello from pith.");
    const messages = await client.getMessages();
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    await client.setSessionName("pi client test");

    // steer and follow_up queue while a run streams; clear_queue hands them back; abort stops it.
    llm.enqueue({ text: Array.from({ length: 100 }, (_, i) => `w${i} `), chunkDelayMs: 50 });
    const aborted = runDone(client);
    await client.prompt("long story");
    await client.steer("shorter please");
    await client.followUp("and a title");
    expect((await client.getState()).pendingMessageCount).toBe(2);
    expect(await client.clearQueue()).toEqual({ steering: ["shorter please"], followUp: ["and a title"] });
    await client.abort();
    await aborted;

    const entries = await client.getEntries();
    expect(entries.entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.leafId).toBe(entries.entries.at(-1).id);
    expect((await client.getEntries(entries.entries[0].id)).entries).toEqual(entries.entries.slice(1));
    const tree = await client.getTree();
    expect(tree.leafId).toBe(entries.leafId);
    expect(tree.tree[0].entry).toEqual(entries.entries[0]);

    const stats = await client.getSessionStats();
    expect(stats.userMessages).toBe(2);
    expect(await client.getCommands()).toEqual([]);
    const bash = await client.bash("echo hi");
    expect(bash).toMatchObject({ output: "hi\n", exitCode: 0, cancelled: false });
    await client.abortBash();
    const forks = await client.getForkMessages();
    expect(forks.map((f: any) => f.text)).toEqual(["hello", "long story"]);
    expect(await client.fork(forks[1].entryId)).toEqual({ text: "long story", cancelled: false });
    expect(await client.clone()).toEqual({ cancelled: false });
    const exported = await client.exportHtml();
    expect(exported.path).toMatch(/\.html$/);
    const file = (await client.getState()).sessionFile;
    expect(await client.newSession()).toEqual({ cancelled: false });
    expect(await client.switchSession(file)).toEqual({ cancelled: false });
    // A failed command reaches pi's client as its error text.
    await expect(client.compact()).rejects.toThrow("Nothing to compact (session too small)");
    expect(await client.cycleModel()).toMatchObject({ model: { id: "fake-claude" }, isScoped: false });
    expect(await client.setModel("fake-openai", "fake-gpt")).toMatchObject({ id: "fake-gpt" });
  }, 120_000);
});
