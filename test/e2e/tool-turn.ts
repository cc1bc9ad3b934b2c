// One scripted turn of tool calls through the built CLI, seen from both sides: what each tool
// answered in pith's frames (`tool_execution_end`) and what the fake provider received as the
// tool's result in the next request.
import type { FakeLlm, FakeRequest } from "../support/fake-llm-server.js";
import type { Frame, Pith } from "./harness.js";

/** The text of the tool result for `toolCallId` in an OpenAI chat-completions request, if any. */
export function toolMessage(r: FakeRequest, toolCallId: string): string | undefined {
  const m = (r.body.messages as Frame[]).find((x) => x.role === "tool" && x.tool_call_id === toolCallId);
  if (!m) return undefined;
  return typeof m.content === "string" ? m.content : m.content.map((b: Frame) => b.text ?? "").join("");
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: Frame;
}

/** Runs `calls` in one model turn; each call's result text as the provider received it, and its isError from the frames. */
export async function runTools(llm: FakeLlm, p: Pith, calls: ToolCall[], timeoutMs = 60_000): Promise<Map<string, { text: string; isError: boolean }>> {
  const before = llm.requests.length;
  llm.enqueue({ toolCalls: calls }, { text: "done" });
  const frames = await p.promptAndWait("go", {}, timeoutMs);
  const last = llm.requests.slice(before).filter((r) => r.method === "POST").at(-1)!;
  const out = new Map<string, { text: string; isError: boolean }>();
  for (const c of calls) {
    const end = frames.find((f) => f.type === "tool_execution_end" && f.toolCallId === c.id);
    out.set(c.id, { text: toolMessage(last, c.id) ?? "", isError: end?.isError });
  }
  return out;
}
