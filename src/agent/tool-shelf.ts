// Deferred tools (setting `tools.deferred`): a tool marked `deferred` is not sent to
// the provider with its own definition. One `call_tool` definition lists the deferred tools, a
// line each, and the model reaches them through it; `call_tool` with only a name answers with
// that tool's full description and parameters. The tool list therefore stays the same for the
// whole session (the prompt-cache prefix holds) while every request carries a few hundred bytes
// instead of each specialist tool's schema. The call is unwrapped before it runs: permission
// rules, checkpoints, the host's tool events and the stored toolResult name the real tool (so
// stats, todos and the export find a `task` or `todo_write` result as such); the assistant
// message keeps the model's call_tool call, and a result is replayed to the provider under the
// name of the call it answers (convert-messages.ts), so the conversation replays exactly.
import type { ToolCall } from "../shared/types.js";
import type { Tool } from "../tools/types.js";

export const SHELF_TOOL = "call_tool";

/** What the provider is told about one tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * The definitions to send: every tool that is not deferred, then `call_tool` for the rest. A tool
 * the request forces (`forced`, a tool_choice) keeps its own definition.
 */
export function advertisedTools(tools: readonly Tool[], forced?: string): ToolDefinition[] {
  // a tool of its own named call_tool (a host's) wins: then nothing is deferred
  const shelved = !tools.some((t) => t.name === SHELF_TOOL);
  const out: ToolDefinition[] = [];
  const shelf: Tool[] = [];
  for (const t of tools) {
    if (t.deferred && shelved && t.name !== forced) shelf.push(t);
    else out.push({ name: t.name, description: t.description, parameters: t.parameters });
  }
  if (shelf.length > 0) out.push(shelfDefinition(shelf));
  return out;
}

function shelfDefinition(shelf: readonly Tool[]): ToolDefinition {
  const lines = shelf.map((t) => `- ${t.name}(${paramList(t.parameters)}) ${t.summary ?? firstSentence(t.description)}`);
  return {
    name: SHELF_TOOL,
    description: `Runs one of these tools with {name, arguments}; the name alone returns its full description.\n${lines.join("\n")}`,
    parameters: {
      type: "object",
      // the names are in the description; an unknown one gets the list back
      properties: { name: { type: "string" }, arguments: { type: "object" } },
      required: ["name"],
    },
  };
}

/** `a, b, …` from a JSON Schema's properties: the required ones, then … when there are more. */
function paramList(schema: Record<string, unknown>): string {
  const props = schema.properties;
  if (!props || typeof props !== "object") return "";
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  // optional ones show as "…": the name alone tells them
  const keys = Object.keys(props);
  const names = keys.filter((k) => required.has(k));
  return names.length < keys.length ? [...names, "…"].join(", ") : names.join(", ");
}

/** The description's first sentence, at most about 70 characters (the rest comes with the name alone). */
function firstSentence(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  const end = line.search(/[.:;(](\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end).trimEnd();
  if (sentence.length <= 72) return sentence;
  const cut = sentence.lastIndexOf(" ", 70);
  return `${sentence.slice(0, cut > 30 ? cut : 70)}…`;
}

/** How a `call_tool` call resolves: the call to run, or an answer without running anything. */
export type ShelfResolution =
  | { kind: "run"; call: ToolCall; tool: Tool }
  | { kind: "answer"; text: string; isError: boolean };

/**
 * Resolves a call to `call_tool` against the tools of the turn (`byName`); undefined for any
 * other call. Only deferred tools are reachable through it.
 */
export function resolveShelfCall(call: ToolCall, byName: ReadonlyMap<string, Tool>): ShelfResolution | undefined {
  if (call.name !== SHELF_TOOL || byName.get(SHELF_TOOL)) return undefined;
  const shelf = [...byName.values()].filter((t) => t.deferred);
  const raw = call.arguments ?? {};
  const name = typeof raw.name === "string" ? raw.name : undefined;
  const tool = name === undefined ? undefined : byName.get(name);
  if (!tool?.deferred) {
    const what = name === undefined ? "call_tool needs a tool name" : `No tool named ${JSON.stringify(name)} behind call_tool`;
    return { kind: "answer", isError: true, text: `${what}. Available: ${shelf.map((t) => t.name).join(", ") || "none"}.` };
  }
  const args = raw.arguments;
  if (args === undefined || args === null) {
    const schema = JSON.stringify(tool.parameters);
    return { kind: "answer", isError: false, text: `${tool.name}: ${tool.description}\nParameters (JSON Schema): ${schema}\nCall call_tool with {"name": "${tool.name}", "arguments": {...}}.` };
  }
  if (typeof args !== "object" || Array.isArray(args)) {
    return { kind: "answer", isError: true, text: `call_tool: "arguments" must be an object with ${tool.name}'s parameters` };
  }
  // `_i` (intent tracing) may sit on either level; the tool sees it once
  const inner = { ...(args as Record<string, unknown>) };
  if (raw._i !== undefined && inner._i === undefined) inner._i = raw._i;
  return { kind: "run", call: { ...call, name: tool.name, arguments: inner }, tool };
}
