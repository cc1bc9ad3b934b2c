// pi's `agent_before_settle`: when a prompt's work is over (no retry, compaction or queued
// message follows) and the host did not abort it, extensions may add entries to the session
// and ask for one more model request. pith writes `custom` and `custom_message` drafts (a
// custom message joins the context and the host sees it); `context_edit` and `compaction`
// drafts are refused with an extension error. A request to continue is honoured only when the
// context then has something for the model to answer (it does not end with the model's reply).
import type { BoundaryContext, BoundaryDraft, ExtensionRunner } from "../extensions/index.js";
import type { AgentMessage, AssistantMessage, CustomMessage } from "../shared/types.js";
import type { Conversation } from "./conversation.js";
import { convertToLlm } from "./convert-to-llm.js";
import type { MessageQueues } from "./queues.js";
import type { ReadonlySessionManager } from "../extensions/index.js";

export interface SettleBoundaryOptions {
  runner(): ExtensionRunner | undefined;
  conversation: Conversation;
  queues: MessageQueues;
  view: ReadonlySessionManager;
  /** Shows a message added outside a run to the host (`message_start` / `message_end`). */
  announce(message: CustomMessage): void;
}

const BOUNDARY = "<boundary>";

/** Runs the boundary after the last run of a prompt; resolves true when one more run should follow. */
export async function beforeSettle(o: SettleBoundaryOptions, last: AssistantMessage | undefined): Promise<boolean> {
  const ext = o.runner();
  if (!ext?.hasHandlers("agent_before_settle")) return false;
  const outcome = last?.stopReason === "aborted" ? "aborted" : last?.stopReason === "error" ? "error" : "completed";
  const result = await ext.emitBoundary({ type: "agent_before_settle", outcome }, (entries) => preview(o, usable(entries)));
  for (const draft of result.entries) commit(o, ext, draft);
  if (!result.continue) return false;
  if (preview(o, []).canContinue) return true;
  ext.reportError({ extensionPath: BOUNDARY, event: "agent_before_settle", error: "agent_before_settle requested continuation without runnable model context" });
  return false;
}

/** The drafts pith can write. */
function usable(entries: BoundaryDraft[]): BoundaryDraft[] {
  return entries.filter((d) => typeof d === "object" && d !== null && (d.type === "custom" || d.type === "custom_message"));
}

function draftMessage(d: Extract<BoundaryDraft, { type: "custom_message" }>): CustomMessage {
  return { role: "custom", customType: d.customType, content: d.content ?? [], display: d.display, ...(d.details !== undefined ? { details: d.details } : {}), timestamp: Date.now() };
}

/** The context as it would be with `drafts` written. */
function preview(o: SettleBoundaryOptions, drafts: BoundaryDraft[]): BoundaryContext {
  const added = drafts.flatMap((d) => (d.type === "custom_message" ? [draftMessage(d)] : []));
  const contextMessages: AgentMessage[] = [...o.conversation.messages, ...added];
  const llmMessages = convertToLlm(contextMessages);
  const lastRole = llmMessages[llmMessages.length - 1]?.role;
  return {
    contextEntries: o.view.buildContextEntries(),
    contextMessages,
    llmMessages,
    pendingMessages: o.queues.peek(),
    canContinue: llmMessages.length > 0 && lastRole !== "assistant",
  };
}

function commit(o: SettleBoundaryOptions, ext: ExtensionRunner, draft: BoundaryDraft): void {
  if (draft?.type === "custom" && typeof draft.customType === "string") {
    o.conversation.log.append(draft.data === undefined ? { type: "custom", customType: draft.customType } : { type: "custom", customType: draft.customType, data: draft.data });
  } else if (draft?.type === "custom_message" && typeof draft.customType === "string") {
    const message = draftMessage(draft);
    o.conversation.add(message);
    o.announce(message);
  } else {
    const kind = typeof draft?.type === "string" ? draft.type : typeof draft;
    ext.reportError({ extensionPath: BOUNDARY, event: "agent_before_settle", error: `pith does not write "${kind}" entries from agent_before_settle; ignored` });
  }
}
