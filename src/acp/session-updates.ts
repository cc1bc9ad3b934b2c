// Turns a pith session's events into ACP `session/update` payloads. One translator per ACP
// session: it remembers which tool calls are open (so a cancel can close them) and the text a
// file-writing tool found before it ran (so the update carries a diff with old and new text).
import { readFileSync, statSync } from "node:fs";
import type { AgentMessage, AgentSessionEvent, AssistantMessage, UserContent } from "../shared/types.js";
import { FILE_WRITING_TOOLS, shownCall, toolKind, toolLocations, toolPath, toolTitle } from "./tool-calls.js";

/** The `update` object of a `session/update` notification (the SDK's SessionUpdate, loosely typed here). */
export type AcpUpdate = { sessionUpdate: string } & Record<string, unknown>;

type AcpContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** Files above this size get no diff (the editor would not show it usefully). */
const MAX_DIFF_BYTES = 1 << 20;

function readText(file: string): string | undefined {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > MAX_DIFF_BYTES) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export function toAcpContent(blocks: readonly UserContent[] | string): AcpContent[] {
  if (typeof blocks === "string") return blocks ? [{ type: "text", text: blocks }] : [];
  const out: AcpContent[] = [];
  for (const b of blocks) {
    if (b.type === "text") out.push({ type: "text", text: b.text });
    else if (b.type === "image") out.push({ type: "image", data: b.data, mimeType: b.mimeType });
  }
  return out;
}

const wrap = (c: AcpContent) => ({ type: "content", content: c });

/**
 * What a session's tools read and wrote through the editor's file system (the disk does not
 * change then, so the diff comes from here).
 */
export class FileJournal {
  private readonly reads = new Map<string, string>();
  private readonly writes = new Map<string, string>();

  reset(path: string): void {
    this.reads.delete(path);
    this.writes.delete(path);
  }
  recordRead(path: string, text: string): void {
    if (!this.reads.has(path)) this.reads.set(path, text);
  }
  recordWrite(path: string, text: string): void {
    this.writes.set(path, text);
  }
  firstRead(path: string): string | undefined {
    return this.reads.get(path);
  }
  lastWrite(path: string): string | undefined {
    return this.writes.get(path);
  }
}

interface OpenCall {
  name: string;
  /** Absolute path and text before the call, for edit/write. */
  file?: string;
  before?: string;
}

interface TodoPhaseLike {
  tasks?: Array<{ content?: unknown; status?: unknown }>;
}

/** ACP plan entries from the todo list's phases (abandoned tasks are left out). */
export function planEntries(phases: readonly TodoPhaseLike[]): Array<{ content: string; priority: "medium"; status: string }> {
  const out: Array<{ content: string; priority: "medium"; status: string }> = [];
  for (const phase of phases) {
    for (const t of phase.tasks ?? []) {
      if (typeof t.content !== "string" || t.status === "abandoned") continue;
      const status = t.status === "in_progress" || t.status === "completed" ? t.status : "pending";
      out.push({ content: t.content, priority: "medium", status });
    }
  }
  return out;
}

export class UpdateTranslator {
  private readonly open = new Map<string, OpenCall>();
  /** The last assistant message that ended (its stopReason decides the prompt's stopReason). */
  private lastAssistant: AssistantMessage | undefined;

  constructor(
    private readonly cwd: string,
    private readonly journal?: FileJournal,
  ) {}

  /** The updates one session event becomes (often none). */
  translate(event: AgentSessionEvent): AcpUpdate[] {
    switch (event.type) {
      case "message_update": {
        const e = event.assistantMessageEvent;
        if (e.type === "text_delta" && e.delta) return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: e.delta } }];
        if (e.type === "thinking_delta" && e.delta) return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.delta } }];
        if (e.type === "toolcall_end") {
          const shown = shownCall(e.toolCall.name, e.toolCall.arguments);
          return this.announce(e.toolCall.id, shown.name, shown.args, "pending");
        }
        return [];
      }
      case "message_end":
        if (event.message.role === "assistant") this.lastAssistant = event.message;
        return [];
      case "tool_execution_start":
        return this.start(event.toolCallId, event.toolName, event.args);
      case "tool_execution_update": {
        const content = toAcpContent(event.partialResult.content).map(wrap);
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, status: "in_progress", content }];
      }
      case "tool_execution_end":
        return this.end(event.toolCallId, event.toolName, event.result.content, event.result.details, event.isError);
      case "auto_retry_start":
        return [notice("warning", `Retrying (attempt ${event.attempt} of ${event.maxAttempts})`, event.errorMessage)];
      case "auto_compaction_start":
        return [notice("info", "Compacting the conversation", `reason: ${event.reason}`)];
      default:
        return [];
    }
  }

  lastAssistantMessage(): AssistantMessage | undefined {
    return this.lastAssistant;
  }

  forgetLast(): void {
    this.lastAssistant = undefined;
  }

  /** Final updates for every tool call still open (after a cancel or a failed run). */
  closeOpen(): AcpUpdate[] {
    const out: AcpUpdate[] = [];
    for (const id of this.open.keys()) out.push({ sessionUpdate: "tool_call_update", toolCallId: id, status: "failed" });
    this.open.clear();
    return out;
  }

  private announce(id: string, name: string, args: Record<string, unknown>, status: "pending" | "in_progress"): AcpUpdate[] {
    if (this.open.has(id)) return [];
    this.open.set(id, { name });
    return [
      {
        sessionUpdate: "tool_call",
        toolCallId: id,
        title: toolTitle(name, args, this.cwd),
        kind: toolKind(name),
        status,
        locations: toolLocations(args, this.cwd),
        rawInput: args,
      },
    ];
  }

  private start(id: string, name: string, args: Record<string, unknown>): AcpUpdate[] {
    const announced = this.announce(id, name, args, "in_progress");
    const call = this.open.get(id)!;
    if (FILE_WRITING_TOOLS.has(name)) {
      call.file = toolPath(args, this.cwd);
      if (call.file) {
        this.journal?.reset(call.file);
        call.before = readText(call.file);
      }
    }
    return announced.length > 0 ? announced : [{ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" }];
  }

  private end(id: string, name: string, result: readonly UserContent[], details: unknown, isError: boolean): AcpUpdate[] {
    const call = this.open.get(id) ?? { name };
    this.open.delete(id);
    const content: Array<Record<string, unknown>> = toAcpContent(result).map(wrap);
    if (!isError && call.file) {
      const written = this.journal?.lastWrite(call.file);
      const before = written === undefined ? call.before : this.journal?.firstRead(call.file);
      const after = written ?? readText(call.file);
      if (after !== undefined && after !== before) content.unshift({ type: "diff", path: call.file, oldText: before ?? null, newText: after });
    }
    const out: AcpUpdate[] = [{ sessionUpdate: "tool_call_update", toolCallId: id, status: isError ? "failed" : "completed", content }];
    const phases = (details as { phases?: unknown } | undefined)?.phases;
    if (name === "todo_write" && !isError && Array.isArray(phases)) out.push({ sessionUpdate: "plan", entries: planEntries(phases as TodoPhaseLike[]) });
    return out;
  }
}

function notice(severity: "info" | "warning", title: string, description: string): AcpUpdate {
  return { sessionUpdate: "notice", severity, title, description };
}

/** The updates that replay a stored conversation (session/load), in order. */
export function replayMessages(messages: readonly AgentMessage[], cwd: string): AcpUpdate[] {
  const out: AcpUpdate[] = [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "user") {
      for (const c of toAcpContent(m.content)) out.push({ sessionUpdate: "user_message_chunk", content: c });
    } else if (m.role === "assistant") {
      for (const b of m.content) {
        if (b.type === "text" && b.text) out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: b.text } });
        else if (b.type === "thinking" && b.thinking) out.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: b.thinking } });
        else if (b.type === "toolCall") {
          const shown = shownCall(b.name, b.arguments);
          names.set(b.id, shown.name);
          out.push({
            sessionUpdate: "tool_call",
            toolCallId: b.id,
            title: toolTitle(shown.name, shown.args, cwd),
            kind: toolKind(shown.name),
            status: "pending",
            locations: toolLocations(shown.args, cwd),
            rawInput: shown.args,
          });
        }
      }
    } else if (m.role === "toolResult") {
      const content = toAcpContent(m.content).map(wrap);
      out.push({ sessionUpdate: "tool_call_update", toolCallId: m.toolCallId, status: m.isError ? "failed" : "completed", content });
      const phases = (m.details as { phases?: unknown } | undefined)?.phases;
      if (names.get(m.toolCallId) === "todo_write" && Array.isArray(phases)) out.push({ sessionUpdate: "plan", entries: planEntries(phases as TodoPhaseLike[]) });
    }
  }
  return out;
}
