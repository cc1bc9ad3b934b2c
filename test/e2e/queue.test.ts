// Steering, follow-ups, interrupt modes, queue modes, busy prompts and abort with queued
// messages, end to end against the scripted SSE server. Every test
// asserts on the requests the fake received: which tool results and queued texts the model saw.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeRequest } from "../support/fake-llm-server.js";
import { Pith, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";

const BUSY = "Agent is already processing. Use steer() or followUp() to queue messages, or wait for completion.";
const SKIPPED = "Skipped due to queued user message.";

const llm = useFakeLlm();
const open = trackPiths();

async function start(): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  return p;
}

/** A bash tool call that blocks until the test creates `<cwd>/<name>`: a long tool call without timing. */
function gateCall(id: string, name = "go") {
  return { id, name: "bash", arguments: { command: `while [ ! -f ${name} ]; do sleep 0.02; done; echo gate-${name}-open` } };
}
const openGate = (p: Pith, name = "go") => writeFileSync(path.join(p.cwd, name), "");

/** The chat-completions messages of a request the fake received. */
const msgsOf = (r: FakeRequest): Frame[] => r.body.messages;
const textOf = (m: Frame): string =>
  typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((b: Frame) => b.text ?? "").join("") : "";
const userTexts = (r: FakeRequest) => msgsOf(r).filter((m) => m.role === "user").map(textOf);
const toolMsgs = (r: FakeRequest) => msgsOf(r).filter((m) => m.role === "tool");
const chatRequests = (from: number) => llm.requests.slice(from).filter((r) => r.path.endsWith("/chat/completions"));

describe("steering during a tool batch", () => {
  const hostTool = (name: string) => ({
    name,
    description: `host tool ${name}`,
    parameters: { type: "object", properties: { v: { type: "string" } }, additionalProperties: false },
  });

  async function runSteerScenario(mode: "wait" | "immediate") {
    const p = await start();
    await p.request({ type: "set_interrupt_mode", mode });
    expect((await p.request({ type: "set_host_tools", tools: [hostTool("host_a"), hostTool("host_b")] })).success).toBe(true);
    const before = llm.requests.length;
    // host_a and host_b are shared (run together); bash is exclusive and waits for both.
    llm.enqueue(
      {
        toolCalls: [
          { id: "call_a", name: "host_a", arguments: { v: "a" } },
          { id: "call_b", name: "host_b", arguments: { v: "b" } },
          { id: "call_c", name: "bash", arguments: { command: "echo ran > c.txt; echo c-output" } },
        ],
      },
      { text: "steered reply" },
    );
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "use the tools" });
    const callA = await p.waitFor((f) => f.type === "host_tool_call" && f.toolName === "host_a", 10_000, from);
    const callB = await p.waitFor((f) => f.type === "host_tool_call" && f.toolName === "host_b", 10_000, from);
    expect((await p.request({ type: "steer", message: "STEER-NOW" })).success).toBe(true);
    expect((await p.request({ type: "get_state" })).data.queuedMessageCount).toBe(1);
    p.send({ type: "host_tool_result", id: callA.id, result: { content: [{ type: "text", text: "a-result" }] } });
    return { p, from, before, callA, callB };
  }

  it("wait mode: every call runs with its real result, the steer lands before the next model call", async () => {
    const { p, from, before, callB } = await runSteerScenario("wait");
    await p.waitFor((f) => f.type === "tool_execution_end" && f.toolCallId === "call_a", 10_000, from);
    p.send({ type: "host_tool_result", id: callB.id, result: { content: [{ type: "text", text: "b-result" }] } });
    await p.waitIdle(15_000, from);
    const ends = p.events("tool_execution_end", from);
    expect(ends.map((e) => e.toolCallId)).toEqual(["call_a", "call_b", "call_c"]);
    expect(ends.every((e) => e.isError === false)).toBe(true);
    expect(p.events("host_tool_cancel", from)).toHaveLength(0);
    expect(existsSync(path.join(p.cwd, "c.txt"))).toBe(true);
    // The steer is emitted after turn_end, right after the next turn_start.
    const seq = p.frames.slice(from).filter((f) => ["turn_start", "turn_end", "message_start"].includes(f.type));
    const steerIdx = seq.findIndex((f) => f.type === "message_start" && f.message.role === "user" && textOf(f.message).includes("STEER-NOW"));
    expect(seq[steerIdx - 1].type).toBe("turn_start");
    expect(seq[steerIdx - 2].type).toBe("turn_end");
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(2);
    expect(JSON.stringify(reqs[0].body)).not.toContain("STEER-NOW");
    const second = reqs[1];
    expect(toolMsgs(second).map((m) => [m.tool_call_id, textOf(m)])).toEqual([
      ["call_a", "a-result"],
      ["call_b", "b-result"],
      ["call_c", expect.stringContaining("c-output")],
    ]);
    const last = msgsOf(second).at(-1)!;
    expect(last.role).toBe("user");
    expect(textOf(last)).toContain("STEER-NOW");
    expect((await p.request({ type: "get_state" })).data.queuedMessageCount).toBe(0);
  });

  it("immediate mode: the finished call keeps its result, the running one is cancelled, the unstarted one skipped", async () => {
    const { p, from, before, callB } = await runSteerScenario("immediate");
    const cancel = await p.waitFor((f) => f.type === "host_tool_cancel", 10_000, from);
    expect(cancel.targetId).toBe(callB.id);
    await p.waitIdle(15_000, from);
    const ends = p.events("tool_execution_end", from);
    expect(ends.map((e) => [e.toolCallId, e.isError])).toEqual([
      ["call_a", false],
      ["call_b", true],
      ["call_c", true],
    ]);
    expect(ends[1].result.content[0].text).toBe(SKIPPED);
    expect(ends[2].result.content[0].text).toBe(SKIPPED);
    // The exclusive bash never ran, but still got start + end events.
    expect(existsSync(path.join(p.cwd, "c.txt"))).toBe(false);
    expect(p.events("tool_execution_start", from).map((e) => e.toolCallId).sort()).toEqual(["call_a", "call_b", "call_c"]);
    // A late host result for the cancelled call changes nothing.
    p.send({ type: "host_tool_result", id: callB.id, result: { content: [{ type: "text", text: "late" }] } });
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(2);
    const second = reqs[1];
    expect(toolMsgs(second).map((m) => [m.tool_call_id, textOf(m)])).toEqual([
      ["call_a", "a-result"],
      ["call_b", SKIPPED],
      ["call_c", SKIPPED],
    ]);
    expect(textOf(msgsOf(second).at(-1)!)).toContain("STEER-NOW");
    const agentEnd = p.events("agent_end", from)[0];
    expect(agentEnd.messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult", "user", "assistant"]);
    expect(JSON.stringify(p.frames.slice(from))).not.toContain('"late"');
  });

  it("immediate mode with a long bash call: the steer waits for it, the next call is skipped", async () => {
    const p = await start();
    await p.request({ type: "set_interrupt_mode", mode: "immediate" });
    const before = llm.requests.length;
    llm.enqueue(
      { toolCalls: [gateCall("call_long"), { id: "call_next", name: "bash", arguments: { command: "touch next.txt" } }] },
      { text: "ok" },
    );
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "long tool" });
    await p.waitFor((f) => f.type === "tool_execution_start" && f.toolCallId === "call_long", 10_000, from);
    await p.request({ type: "steer", message: "STOP-AFTER-THIS" });
    openGate(p);
    await p.waitIdle(15_000, from);
    const ends = p.events("tool_execution_end", from);
    expect(ends.map((e) => [e.toolCallId, e.isError])).toEqual([
      ["call_long", false],
      ["call_next", true],
    ]);
    expect(existsSync(path.join(p.cwd, "next.txt"))).toBe(false);
    const second = chatRequests(before)[1];
    expect(toolMsgs(second).map((m) => m.tool_call_id)).toEqual(["call_long", "call_next"]);
    expect(textOf(toolMsgs(second)[0])).toContain("gate-go-open");
    expect(textOf(msgsOf(second).at(-1)!)).toContain("STOP-AFTER-THIS");
  });
});

describe("follow-ups and queue modes", () => {
  it("a follow-up sent during the run is delivered when the run would stop, in the same run", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [gateCall("call_g")] }, { text: "first answer" }, { text: "follow-up answer" });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "start" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    await p.request({ type: "follow_up", message: "FOLLOW-1" });
    openGate(p);
    await p.waitIdle(15_000, from);
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(3);
    // Not delivered after the tool turn (that is steering's place), only once the run would stop.
    expect(JSON.stringify(reqs[1].body)).not.toContain("FOLLOW-1");
    expect(msgsOf(reqs[2]).map((m) => m.role).slice(-2)).toEqual(["assistant", "user"]);
    expect(textOf(msgsOf(reqs[2]).at(-1)!)).toBe("FOLLOW-1");
    expect(p.events("agent_start", from)).toHaveLength(1);
    expect(p.events("agent_end", from)).toHaveLength(1);
    expect(p.events("agent_end", from)[0].messages.at(-1).content[0].text).toBe("follow-up answer");
  });

  type Case = [kind: "steer" | "follow_up", mode: "all" | "one-at-a-time", requests: string[][]];
  // Each row: which queued texts appear in the last user turn of each request after the first.
  const CASES: Case[] = [
    ["steer", "one-at-a-time", [["Q1"], ["Q2"], ["Q3"]]],
    ["steer", "all", [["Q1", "Q2", "Q3"]]],
    ["follow_up", "one-at-a-time", [[], ["Q1"], ["Q2"], ["Q3"]]],
    ["follow_up", "all", [[], ["Q1", "Q2", "Q3"]]],
  ];

  it.each(CASES)("%s with mode %s and three queued messages", async (kind, mode, expected) => {
    const p = await start();
    await p.request({ type: kind === "steer" ? "set_steering_mode" : "set_follow_up_mode", mode });
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [gateCall("call_q")] });
    for (let i = 0; i < expected.length; i++) llm.enqueue({ text: `answer ${i}` });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "queue test" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    for (const q of ["Q1", "Q2", "Q3"]) expect((await p.request({ type: kind, message: q })).success).toBe(true);
    expect((await p.request({ type: "get_state" })).data.queuedMessageCount).toBe(3);
    openGate(p);
    await p.waitIdle(15_000, from);
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(1 + expected.length);
    reqs.slice(1).forEach((r, i) => {
      const msgs = msgsOf(r);
      const lastUser = msgs.at(-1)!;
      const queuedIn = ["Q1", "Q2", "Q3"].filter((q) => lastUser.role === "user" && textOf(lastUser).includes(q));
      expect(queuedIn).toEqual(expected[i]);
    });
    // FIFO order within one delivery, and everything was delivered exactly once.
    const userStarts = p.events("message_start", from).filter((f) => f.message.role === "user").map((f) => textOf(f.message));
    expect(userStarts).toEqual(["queue test", "Q1", "Q2", "Q3"]);
    expect(p.events("agent_end", from)).toHaveLength(1);
    expect((await p.request({ type: "get_state" })).data.queuedMessageCount).toBe(0);
  });

  it("prompt with streamingBehavior while busy queues as steer / follow-up", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [gateCall("call_sb")] }, { text: "after steer" }, { text: "after follow-up" });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "first" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    expect((await p.request({ type: "prompt", message: "AS-FOLLOW", streamingBehavior: "followUp" })).success).toBe(true);
    expect((await p.request({ type: "prompt", message: "AS-STEER", streamingBehavior: "steer" })).success).toBe(true);
    openGate(p);
    await p.waitIdle(15_000, from);
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(3);
    expect(textOf(msgsOf(reqs[1]).at(-1)!)).toBe("AS-STEER");
    expect(textOf(msgsOf(reqs[2]).at(-1)!)).toBe("AS-FOLLOW");
  });
});

describe("busy prompts and aborts", () => {
  it("a prompt without streamingBehavior while busy is rejected with the exact error; the run is unaffected", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [gateCall("call_busy")] }, { text: "done" });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "first" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    const res = await p.request({ id: "busy1", type: "prompt", message: "REJECTED-TEXT" });
    expect(res).toEqual({ type: "response", id: "busy1", command: "prompt", success: false, error: BUSY });
    expect((await p.request({ type: "get_state" })).data.queuedMessageCount).toBe(0);
    openGate(p);
    await p.waitIdle(15_000, from);
    // Exactly one response for that id, nothing queued, and the run completed normally.
    expect(p.frames.filter((f) => f.type === "response" && f.id === "busy1")).toHaveLength(1);
    expect(JSON.stringify(llm.requests.slice(before).map((r) => r.body))).not.toContain("REJECTED-TEXT");
    const end = p.events("agent_end", from);
    expect(end).toHaveLength(1);
    expect(end[0].messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(end[0].messages.at(-1).stopReason).toBe("stop");
  });

  it("two prompts back to back: the second is busy even before any event", async () => {
    const p = await start();
    llm.enqueue({ text: "only one", delayMs: 200 });
    const from = p.frames.length;
    p.send({ id: "bb1", type: "prompt", message: "one" });
    p.send({ id: "bb2", type: "prompt", message: "two" });
    const r2 = await p.waitFor((f) => f.type === "response" && f.id === "bb2", 10_000, from);
    expect(r2.success).toBe(false);
    expect(r2.error).toBe(BUSY);
    await p.waitIdle(15_000, from);
    expect(p.events("agent_start", from)).toHaveLength(1);
  });

  it("abort_and_prompt aborts the running tool and starts the new prompt; every tool call has a result", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [gateCall("call_ap", "never")] }, { text: "new answer" });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "old prompt" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    const res = await p.request({ id: "ap1", type: "abort_and_prompt", message: "NEW-PROMPT" });
    expect(res).toEqual({ type: "response", id: "ap1", command: "abort_and_prompt", success: true });
    await p.waitFor((f) => f.type === "agent_end" && f.messages.at(-1)?.content?.[0]?.text === "new answer", 15_000, from);
    await p.waitIdle(15_000, from);
    const ends = p.events("agent_end", from);
    expect(ends).toHaveLength(2);
    expect(ends[0].messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(ends[0].messages[2].isError).toBe(true);
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(2);
    const roles = msgsOf(reqs[1]).map((m) => m.role);
    expect(roles.slice(-4)).toEqual(["user", "assistant", "tool", "user"]);
    expect(toolMsgs(reqs[1])[0].tool_call_id).toBe("call_ap");
    expect(textOf(msgsOf(reqs[1]).at(-1)!)).toBe("NEW-PROMPT");
  });

  it("abort keeps queued messages; they are delivered by the next run", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue({ text: ["streaming ", "forever"], hang: true });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "hang" });
    await p.waitFor((f) => f.type === "message_update" && f.assistantMessageEvent.type === "text_delta", 10_000, from);
    await p.request({ type: "steer", message: "KEPT-STEER" });
    await p.request({ type: "follow_up", message: "KEPT-FOLLOW" });
    expect((await p.request({ type: "abort" })).success).toBe(true);
    const state = (await p.request({ type: "get_state" })).data;
    expect(state.isStreaming).toBe(false);
    expect(state.queuedMessageCount).toBe(2);
    expect(p.events("agent_end", from)).toHaveLength(1);
    expect(JSON.stringify(p.events("agent_end", from)[0])).not.toContain("KEPT-");
    llm.enqueue({ text: "answer to steer" }, { text: "answer to follow" });
    const frames = await p.promptAndWait("NEXT");
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(3);
    // The steer is injected right after the new prompt, before the first model call.
    const r1Users = userTexts(reqs[1]);
    expect(r1Users.at(-1)).toContain("NEXT");
    expect(r1Users.at(-1)).toContain("KEPT-STEER");
    expect(r1Users.join("")).not.toContain("KEPT-FOLLOW");
    expect(textOf(msgsOf(reqs[2]).at(-1)!)).toBe("KEPT-FOLLOW");
    const users = frames.filter((f) => f.type === "message_start" && f.message.role === "user").map((f) => textOf(f.message));
    expect(users).toEqual(["NEXT", "KEPT-STEER", "KEPT-FOLLOW"]);
    expect((await p.request({ type: "get_state" })).data.queuedMessageCount).toBe(0);
  });

  it("steer while idle waits for the next prompt and never starts a run", async () => {
    const p = await start();
    const before = llm.requests.length;
    await p.request({ type: "steer", message: "IDLE-STEER" });
    const state = (await p.request({ type: "get_state" })).data;
    expect(state.isStreaming).toBe(false);
    expect(state.queuedMessageCount).toBe(1);
    expect(chatRequests(before)).toHaveLength(0);
    llm.enqueue({ text: "both seen" });
    const frames = await p.promptAndWait("PROMPT");
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(1);
    expect(userTexts(reqs[0]).join("\n")).toMatch(/PROMPT[\s\S]*IDLE-STEER/);
    expect(frames.filter((f) => f.type === "turn_start")).toHaveLength(1);
  });
});
