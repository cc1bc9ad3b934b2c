// Scripted replies for the task tool's e2e tests: parent and subagents share one fake server, so
// each reply is routed by the first user message of the request (the parent's prompt, or the
// subagent's assignment).
import type { FakeReply, FakeRequest } from "../support/fake-llm-server.js";
import type { Frame } from "./harness.js";

/** The text of the first user message of a request: the prompt of a parent, the assignment of a subagent. */
export function firstUserText(r: FakeRequest): string {
  const m = ((r.body as { messages?: Array<{ role: string; content: unknown }> })?.messages ?? [])[0];
  if (!m) return "";
  if (typeof m.content === "string") return m.content;
  return (m.content as Array<{ type: string; text?: string }>).map((b) => b.text ?? "").join("");
}
export const forSub = (needle: string, reply: FakeReply): FakeReply => ({ ...reply, match: (r) => firstUserText(r).includes(needle) });
export const forParent = (prompt: string, reply: FakeReply): FakeReply => ({ ...reply, match: (r) => firstUserText(r) === prompt });

/**
 * A `task` call of tool call id `id`; each task's description is `job <task id>`. Made as a model
 * makes it by default: through call_tool (task is a deferred tool).
 */
export function taskCall(id: string, agent: string, tasks: Array<[string, string]>, extra: Record<string, unknown> = {}): FakeReply {
  const args = { agent, ...extra, tasks: tasks.map(([tid, assignment]) => ({ id: tid, description: `job ${tid}`, assignment })) };
  return { toolCalls: [{ id, name: "call_tool", arguments: { name: "task", arguments: args } }] };
}

export const endOf = (frames: Frame[], id: string): Frame => frames.find((f) => f.type === "tool_execution_end" && f.toolCallId === id)!;
export const resultText = (f: Frame): string => (f.result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("");
