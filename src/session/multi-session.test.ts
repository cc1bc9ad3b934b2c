// Two sessions in one process, at the same time, against the scripted SSE server through the real
// provider packages: they share the model registry and settings they are given, and nothing else.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { sessionWiring } from "./session-wiring.js";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm } from "../../test/support/fake-llm-server.js";
import { fakeTool } from "../../test/support/agent.js";
import { createModelRegistry } from "../providers/models/registry.js";
import { createStreamFn } from "../providers/stream.js";
import type { AgentSessionEvent } from "../shared/types.js";
import { testSession, testSettings } from "../../test/support/session.js";

let a: FakeLlm;
let b: FakeLlm;
beforeAll(async () => {
  [a, b] = await Promise.all([startFakeLlmServer(), startFakeLlmServer()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

function registryFor(servers: Record<string, FakeLlm>) {
  const home = mkdtempSync(path.join(tmpdir(), "pith-home-"));
  const providers: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    providers[name] = { baseUrl: server.url, api: "openai-completions", apiKey: "test-key", models: [{ id: "fake-model", reasoning: false }] };
  }
  writeFileSync(path.join(home, "models.json"), JSON.stringify({ providers }));
  return createModelRegistry({ pithHome: home, env: {}, warn: () => undefined, catalog: { providers: {} } });
}

const replyText = (events: AgentSessionEvent[]) =>
  events.flatMap((e) => (e.type === "message_end" && e.message.role === "assistant" ? e.message.content : [])).map((c) => ("text" in c ? c.text : ""));

describe("many sessions in one process", () => {
  it("two sessions stream at the same time; their events, files and stats stay apart", async () => {
    const registry = registryFor({ "fake-a": a, "fake-b": b });
    const settings = testSettings();
    const slow = { chunkDelayMs: 15 };
    a.enqueue({ ...slow, toolCalls: [{ id: "a1", name: "probe", arguments: { who: "a" } }], usage: { input: 100, output: 10 } }, { ...slow, text: ["alpha ", "done"], usage: { input: 120, output: 5 } });
    b.enqueue({ ...slow, toolCalls: [{ id: "b1", name: "probe", arguments: { who: "b" } }], usage: { input: 200, output: 20 } }, { ...slow, text: ["beta ", "done"], usage: { input: 220, output: 7 } });
    const one = testSession({ stream: createStreamFn(), registry, settings, model: registry.find("fake-a", "fake-model"), tools: [fakeTool("probe")] });
    const two = testSession({ stream: createStreamFn(), registry, settings, model: registry.find("fake-b", "fake-model"), tools: [fakeTool("probe")] });
    const timeline: string[] = [];
    one.session.subscribe((e) => (e.type === "agent_start" || e.type === "agent_end") && timeline.push(`one:${e.type}`));
    two.session.subscribe((e) => (e.type === "agent_start" || e.type === "agent_end") && timeline.push(`two:${e.type}`));

    await Promise.all([one.session.prompt("ask a").done, two.session.prompt("ask b").done]);

    // both runs were in flight at once
    expect(timeline.slice(0, 2).sort()).toEqual(["one:agent_start", "two:agent_start"]);
    expect(replyText(one.events).join("")).toBe("alpha done");
    expect(replyText(two.events).join("")).toBe("beta done");
    // each server saw only its session's conversation, tool result included
    expect(a.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    expect(b.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    expect(JSON.stringify(a.requests.at(-1)!.body.messages)).toContain("ask a");
    expect(JSON.stringify(a.requests.at(-1)!.body.messages)).not.toContain("ask b");
    expect(JSON.stringify(b.requests.at(-1)!.body.messages)).toContain("probe ok");
    // files and stats are each session's own
    const fileOne = sessionWiring(one.session).history.sessionFile!;
    const fileTwo = sessionWiring(two.session).history.sessionFile!;
    expect(fileOne).not.toBe(fileTwo);
    expect(readFileSync(fileOne, "utf8")).toContain("ask a");
    expect(readFileSync(fileOne, "utf8")).not.toContain("ask b");
    expect(sessionWiring(one.session).history.stats().tokens).toMatchObject({ input: 220, output: 15 });
    expect(sessionWiring(two.session).history.stats().tokens).toMatchObject({ input: 420, output: 27 });
    expect(one.session.id).not.toBe(two.session.id);
    // a switch in one leaves the other where it was
    await sessionWiring(one.session).history.newSession();
    expect(sessionWiring(two.session).history.sessionFile).toBe(fileTwo);
    expect(sessionWiring(two.session).history.messages).toHaveLength(4);
    await Promise.all([one.session.close(), two.session.close()]);
  });

  it("the scripted provider keeps one script position per session", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pith-script-"));
    const script = path.join(dir, "s.json");
    writeFileSync(script, JSON.stringify({ replies: [{ text: "first" }, { text: "second" }] }));
    const registry = createModelRegistry({ pithHome: dir, env: {}, warn: () => undefined, catalog: { providers: {} }, cwd: dir });
    const model = registry.resolve("scripted", script);
    const one = testSession({ stream: createStreamFn(), registry, model });
    const two = testSession({ stream: createStreamFn(), registry, model });
    await one.session.prompt("x").done;
    await two.session.prompt("y").done;
    expect(sessionWiring(one.session).history.lastAssistantText()).toBe("first");
    expect(sessionWiring(two.session).history.lastAssistantText()).toBe("first");
    await one.session.prompt("z").done;
    expect(sessionWiring(one.session).history.lastAssistantText()).toBe("second");
    await Promise.all([one.session.close(), two.session.close()]);
  });
});
