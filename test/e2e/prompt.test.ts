// A prompt streams a real reply through the real AI SDK provider packages against the
// scripted SSE server, for both OpenAI chat completions and Anthropic messages.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { Pith, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";

const llm = useFakeLlm({ models: ["listed-model-a", "listed-model-b"] });
const open = trackPiths();

async function start(provider: string, model: string, extra: string[] = []): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", provider, "--model", model, ...extra] });
  open.push(p);
  return p;
}

// prompt_result, session_settled and agent_settled follow the run; they are checked in prompt-results.test.ts.
const LATER = new Set(["response", "prompt_result", "session_settled", "agent_settled"]);
const types = (frames: Frame[]) => frames.filter((f) => !LATER.has(f.type)).map((f) => (f.type === "message_update" ? `update:${f.assistantMessageEvent.type}` : f.type === "message_start" || f.type === "message_end" ? `${f.type}:${f.message.role}` : f.type));

function collapse(seq: string[]): string[] {
  return seq.filter((t, i) => !(t.endsWith("_delta") && seq[i - 1] === t));
}

const PROVIDERS: Array<[string, string, string]> = [
  ["openai-completions", "fake-openai", "fake-gpt"],
  ["anthropic-messages", "fake-anthropic", "fake-claude"],
];

describe.each(PROVIDERS)("prompting over %s", (_api, provider, model) => {
  it("streams a plain text reply in the canonical order", async () => {
    const p = await start(provider, model);
    const before = llm.requests.length;
    llm.enqueue({ text: ["Hel", "lo ", "there"], usage: { input: 1000, output: 200 } });
    const frames = await p.promptAndWait("Say hi");
    expect(collapse(types(frames).filter((t) => t !== "response"))).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "update:text_start",
      "update:text_delta",
      "update:text_end",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    const end = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.content).toEqual([{ type: "text", text: "Hello there" }]);
    expect(end.message.stopReason).toBe("stop");
    // cost from the models.json prices: 1000 * 3/1e6 + 200 * 15/1e6
    expect(end.message.usage.input).toBe(1000);
    expect(end.message.usage.output).toBe(200);
    expect(end.message.usage.cost.total).toBeCloseTo(0.003 + 0.003, 9);
    const req = llm.requests[before];
    const key = String(req.headers.authorization ?? req.headers["x-api-key"]);
    expect(key).toContain("test-key");
    const last = await p.request({ type: "get_last_assistant_text" });
    expect(last.data).toEqual({ text: "Hello there" });
    const msgs = await p.request({ type: "get_messages" });
    expect(msgs.data.messages.map((m: Frame) => m.role)).toEqual(["user", "assistant"]);
  });

  it("streams thinking then text", async () => {
    const p = await start(provider, model);
    llm.enqueue({ thinking: ["Let me ", "think"], text: "Done." });
    const frames = await p.promptAndWait("Think first");
    const seq = collapse(types(frames));
    expect(seq).toContain("update:thinking_start");
    expect(seq.indexOf("update:thinking_end")).toBeLessThan(seq.indexOf("update:text_start"));
    const end = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.content[0]).toMatchObject({ type: "thinking", thinking: "Let me think" });
  });

  it("runs two tool calls and sends their results in the next request", async () => {
    const p = await start(provider, model);
    writeFileSync(path.join(p.cwd, "a.txt"), "alpha\n");
    writeFileSync(path.join(p.cwd, "b.txt"), "beta\n");
    const before = llm.requests.length;
    llm.enqueue(
      { toolCalls: [{ id: "call_a", name: "read", arguments: { path: "a.txt" } }, { id: "call_b", name: "read", arguments: { path: "b.txt" } }] },
      { text: "Both read." },
    );
    const frames = await p.promptAndWait("Read both files");
    const ends = frames.filter((f) => f.type === "tool_execution_end");
    expect(ends.map((f) => f.toolCallId).sort()).toEqual(["call_a", "call_b"]);
    expect(ends.every((f) => f.isError === false)).toBe(true);
    const turnEnds = frames.filter((f) => f.type === "turn_end");
    expect(turnEnds).toHaveLength(2);
    expect(turnEnds[0].toolResults).toHaveLength(2);
    const posts = llm.requests.slice(before).filter((r) => r.method === "POST");
    const second = JSON.stringify(posts[1].body);
    expect(second).toContain("alpha");
    expect(second).toContain("beta");
    expect(second).toContain("call_a");
    const agentEnd = frames.find((f) => f.type === "agent_end")!;
    expect(agentEnd.messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
  });

  it("reports a provider HTTP error as an error message and stays alive", async () => {
    const p = await start(provider, model);
    await p.request({ type: "set_auto_retry", enabled: false });
    llm.enqueue({ error: { status: 400, body: { error: { message: "bad request from fake" } } } });
    const frames = await p.promptAndWait("fail please");
    const end = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.stopReason).toBe("error");
    expect(end.message.errorMessage).toMatch(/^400/);
    expect(frames.filter((f) => f.type === "response" && f.command === "prompt")).toHaveLength(1);
    llm.enqueue({ text: "recovered" });
    const again = await p.promptAndWait("again");
    expect(again.find((f) => f.type === "agent_end")!.messages.at(-1).content[0].text).toBe("recovered");
  });

  it("aborts mid-stream; the run ends and the next prompt works", async () => {
    const p = await start(provider, model);
    llm.enqueue({ text: ["partial ", "reply"], hang: true });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "hang" });
    await p.waitFor((f) => f.type === "message_update" && f.assistantMessageEvent.type === "text_delta", 10_000, from);
    const res = await p.request({ type: "abort" });
    expect(res.success).toBe(true);
    const end = p.frames.slice(from).find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(end.message.stopReason).toBe("aborted");
    expect(end.message.errorMessage).toBe("Request was aborted");
    expect(p.events("agent_end", from)).toHaveLength(1);
    // agent_end comes before the abort response
    const idxEnd = p.frames.indexOf(p.events("agent_end", from)[0]);
    expect(idxEnd).toBeLessThan(p.frames.indexOf(res));
    llm.enqueue({ text: "fine" });
    const again = await p.promptAndWait("next");
    expect(again.find((f) => f.type === "agent_end")).toBeDefined();
  });

  it("aborts mid-tool: the tool result is an error and the run ends", async () => {
    const p = await start(provider, model);
    llm.enqueue({ toolCalls: [{ id: "call_s", name: "bash", arguments: { command: "sleep 30" } }] });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "sleep" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    const t0 = Date.now();
    await p.request({ type: "abort" });
    expect(Date.now() - t0).toBeLessThan(5000);
    const end = p.events("tool_execution_end", from)[0];
    expect(end.isError).toBe(true);
    const state = await p.request({ type: "get_state" });
    expect(state.data.isStreaming).toBe(false);
    const msgs = (await p.request({ type: "get_messages" })).data.messages;
    expect(msgs.map((m: Frame) => m.role)).toEqual(["user", "assistant", "toolResult"]);
  });
});

describe("models", () => {
  it("lists models from models.json and, for a provider that sets discover, from its /models endpoint", async () => {
    const modelsJson = fakeModelsJson(llm.url) as { providers: Record<string, Record<string, unknown>> };
    modelsJson.providers["fake-openai"]!.discover = true;
    const p = await Pith.start({ modelsJson, args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    open.push(p);
    const res = await p.request({ type: "get_available_models" });
    const ids = res.data.models.map((m: Frame) => `${m.provider}/${m.id}`);
    expect(ids).toContain("fake-openai/fake-gpt");
    expect(ids).toContain("fake-anthropic/fake-claude");
    expect(ids).toContain("fake-openai/listed-model-a");
    expect(llm.requests.some((r) => r.method === "GET" && r.path.endsWith("/models"))).toBe(true);
  });

  it("set_model answers the model or the exact not-found error; thinking levels clamp and cycle", async () => {
    const p = await start("fake-openai", "fake-gpt");
    const ok = await p.request({ type: "set_model", provider: "fake-anthropic", modelId: "fake-claude" });
    expect(ok.data).toMatchObject({ provider: "fake-anthropic", id: "fake-claude" });
    const bad = await p.request({ id: "m9", type: "set_model", provider: "nope", modelId: "x" });
    expect(bad).toEqual({ type: "response", id: "m9", command: "set_model", success: false, error: "Model not found: nope/x" });
    await p.request({ type: "set_thinking_level", level: "off" });
    expect((await p.request({ type: "get_state" })).data.thinkingLevel).toBe("off");
    const cyc = await p.request({ type: "cycle_thinking_level" });
    expect(typeof cyc.data.level).toBe("string");
    const cm = await p.request({ type: "cycle_model" });
    expect(cm.data.model.id).not.toBe("fake-claude");
  });
});

describe("images", () => {
  it("are refused with a clear error for a model that takes text only", async () => {
    const models = fakeModelsJson(llm.url) as { providers: Record<string, { models: Array<Record<string, unknown>> }> };
    models.providers["fake-openai"].models[0].input = ["text"];
    const p = await Pith.start({ modelsJson: models, args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    open.push(p);
    const before = llm.requests.filter((r) => r.method === "POST").length;
    const res = await p.request({ type: "prompt", message: "look", images: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] });
    expect(res).toMatchObject({ success: false, error: "Model fake-openai/fake-gpt does not accept images" });
    expect(llm.requests.filter((r) => r.method === "POST").length).toBe(before);
    expect((await p.request({ type: "get_state" })).data.isStreaming).toBe(false);
  });
});
