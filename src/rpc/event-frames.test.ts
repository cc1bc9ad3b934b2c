// The event framer alone: deltas of one block coalesce within the window, any other frame
// flushes them first, delta-only frames drop the partial, and a backed-up sink holds deltas.
import { describe, expect, it } from "vitest";
import type { AgentSessionEvent, AssistantMessage } from "../shared/types.js";
import { emptyAssistantMessage } from "../shared/types.js";
import { EventFramer, type FrameSink, type RpcFrame } from "./event-frames.js";

function sink(pending = 0): FrameSink & { frames: RpcFrame[]; pendingBytes: number } {
  const frames: RpcFrame[] = [];
  return { frames, pendingBytes: pending, write: (f) => void frames.push(f) };
}

const partial: AssistantMessage = emptyAssistantMessage({ api: "x", provider: "x", id: "m" }, 1);
const delta = (text: string, contentIndex = 0, type: "text_delta" | "thinking_delta" = "text_delta"): AgentSessionEvent => ({
  type: "message_update",
  message: partial,
  assistantMessageEvent: { type, contentIndex, delta: text, partial },
});
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("EventFramer", () => {
  it("merges consecutive deltas of one block into one frame after the window", async () => {
    const s = sink();
    const framer = new EventFramer(s);
    framer.push(delta("a"));
    framer.push(delta("b"));
    framer.push(delta("c"));
    expect(s.frames).toEqual([]);
    await wait(40);
    expect(s.frames).toHaveLength(1);
    expect(s.frames[0]).toMatchObject({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "abc" } });
  });

  it("flushes held deltas before any other frame and when the block changes", () => {
    const s = sink();
    const framer = new EventFramer(s);
    framer.push(delta("a"));
    framer.push(delta("t", 1, "thinking_delta"));
    framer.write({ type: "response", command: "get_state", success: true });
    framer.push({ type: "agent_end", messages: [] });
    expect(s.frames.map((f) => (f.type === "message_update" ? f.assistantMessageEvent.type : f.type))).toEqual([
      "text_delta",
      "thinking_delta",
      "response",
      "agent_end",
    ]);
  });

  it("delta-only frames carry just the sub-event, without message or partial", () => {
    const s = sink();
    const framer = new EventFramer(s, { deltaOnly: true });
    framer.push(delta("x"));
    framer.flush();
    expect(s.frames).toEqual([{ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "x" } }]);
  });

  it("keeps merging while the sink is backed up, then writes once it drains", async () => {
    const s = sink(2 << 20);
    const framer = new EventFramer(s);
    framer.push(delta("a"));
    await wait(40);
    framer.push(delta("b"));
    expect(s.frames).toHaveLength(0);
    s.pendingBytes = 0;
    await wait(40);
    expect(s.frames).toHaveLength(1);
    expect(s.frames[0]).toMatchObject({ assistantMessageEvent: { delta: "ab" } });
  });

  it("coalesces a subagent's deltas inside subagent_event, per subagent, and shapes them delta-only", async () => {
    const sub = (id: string, e: AgentSessionEvent): AgentSessionEvent => ({ type: "subagent_event", payload: { id, event: e } });
    const s = sink();
    const framer = new EventFramer(s);
    framer.push(sub("a", delta("1")));
    framer.push(sub("b", delta("x")));
    framer.push(sub("a", delta("2")));
    framer.push(delta("own"));
    expect(s.frames).toEqual([]);
    await wait(40);
    const text = (f: RpcFrame): string => {
      const j = f as { type: string; payload?: { id: string; event: { assistantMessageEvent: { delta: string } } }; assistantMessageEvent?: { delta: string } };
      return j.payload ? `${j.payload.id}:${j.payload.event.assistantMessageEvent.delta}` : `own:${j.assistantMessageEvent!.delta}`;
    };
    expect(s.frames.map(text).sort()).toEqual(["a:12", "b:x", "own:own"]);
    expect((s.frames.find((f) => f.type === "subagent_event") as unknown as { payload: { event: { message: unknown } } }).payload.event.message).toEqual(partial);
    // Another event of a subagent flushes the held deltas first; non-delta updates pass as they are.
    framer.push(sub("a", delta("3")));
    framer.push(sub("a", { type: "turn_end", message: partial, toolResults: [] } as AgentSessionEvent));
    expect(s.frames.slice(3).map((f) => (f.type === "subagent_event" ? f.payload.event.type : f.type))).toEqual(["message_update", "turn_end"]);
    const only = sink();
    const deltaOnly = new EventFramer(only, { deltaOnly: true });
    deltaOnly.push(sub("a", delta("q")));
    deltaOnly.flush();
    expect(only.frames).toEqual([{ type: "subagent_event", payload: { id: "a", event: { type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "q" } } } }]);
  });
});
