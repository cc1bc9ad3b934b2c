// How the results of several handlers of one event combine. A step sees one
// handler's non-empty result, may update the event the next handler sees, and may stop the
// fan-out; `done` turns what was gathered into the runner's answer.
import type {
  BeforeAgentStartEvent,
  BeforeAgentStartEventResult,
  BeforeAgentStartOutcome,
  CancelResult,
  ContextEvent,
  ContextEventResult,
  InputEvent,
  InputEventResult,
  InputOutcome,
  MessageEndEventResult,
  SessionBeforeCompactResult,
  SessionBeforeTreeResult,
  ToolCallEventResult,
  ToolResultEvent,
  ToolResultEventResult,
  UserBashEventResult,
} from "./events.js";
import type { AgentMessage } from "../shared/types.js";

export const DEFAULT_BLOCK_REASON = "Tool execution was blocked by an extension";

export interface Reducer<E, R> {
  /** Returns true to stop: no later handler runs. `report` names a result that cannot be used (the handler's extension). */
  step(event: E, result: unknown, report: (error: string) => void): boolean;
  /** A throwing handler; returns true to stop. */
  thrown?(event: E, extensionPath: string, message: string): boolean;
  done(event: E): R | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

export function toolCallReducer(): Reducer<unknown, ToolCallEventResult> {
  let blocked: ToolCallEventResult | undefined;
  return {
    step(_e, r) {
      if (!isObject(r) || r.block !== true) return false;
      blocked = { block: true, reason: typeof r.reason === "string" && r.reason ? r.reason : DEFAULT_BLOCK_REASON };
      return true;
    },
    thrown(_e, path, message) {
      blocked = { block: true, reason: `Extension ${path} failed: ${message}` };
      return true;
    },
    done: () => blocked,
  };
}

export function toolResultReducer(): Reducer<ToolResultEvent, ToolResultEventResult> {
  let patch: ToolResultEventResult | undefined;
  return {
    step(e, r) {
      if (!isObject(r)) return false;
      const p = r as ToolResultEventResult;
      patch ??= {};
      if (Array.isArray(p.content)) e.content = patch.content = p.content;
      if ("details" in p) e.details = patch.details = p.details;
      if (typeof p.isError === "boolean") e.isError = patch.isError = p.isError;
      return false;
    },
    done: () => patch,
  };
}

export function contextReducer(): Reducer<ContextEvent, ContextEventResult> {
  let replaced = false;
  return {
    step(e, r) {
      const messages = isObject(r) ? (r as ContextEventResult).messages : undefined;
      if (Array.isArray(messages)) {
        e.messages = messages;
        replaced = true;
      }
      return false;
    },
    done: (e) => (replaced ? { messages: e.messages } : undefined),
  };
}

export function beforeAgentStartReducer(): Reducer<BeforeAgentStartEvent, BeforeAgentStartOutcome> {
  const out: BeforeAgentStartOutcome = { messages: [] };
  let changed = false;
  return {
    step(e, r) {
      if (!isObject(r)) return false;
      const res = r as BeforeAgentStartEventResult;
      if (isObject(res.message)) {
        out.messages.push(res.message);
        changed = true;
      }
      if (typeof res.systemPrompt === "string") {
        e.systemPrompt = out.systemPrompt = res.systemPrompt;
        changed = true;
      }
      return false;
    },
    done: () => (changed ? out : undefined),
  };
}

export function inputReducer(): Reducer<InputEvent, InputOutcome> {
  let outcome: InputOutcome | undefined;
  return {
    step(e, r) {
      if (!isObject(r)) return false;
      const res = r as Record<string, unknown> & InputEventResult;
      if (res.action === "handled" || res.handled === true) {
        outcome = { handled: true, text: e.text, images: e.images };
        return true;
      }
      if ((res.action === "transform" || res.action === undefined) && typeof res.text === "string") {
        e.text = res.text;
        if (Array.isArray(res.images)) e.images = res.images;
        outcome = { handled: false, text: e.text, images: e.images };
      }
      return false;
    },
    done: () => outcome,
  };
}

/** pi's `message_end` replacement: each handler sees the previous one's message; a different role is refused. */
export function messageEndReducer(): Reducer<{ message: AgentMessage }, MessageEndEventResult> {
  let replaced = false;
  return {
    step(e, r, report) {
      const message = isObject(r) ? r.message : undefined;
      if (!isObject(message)) return false;
      if (message.role !== e.message.role) {
        report("message_end handlers must return a message with the same role");
        return false;
      }
      e.message = message as unknown as AgentMessage;
      replaced = true;
      return false;
    },
    done: (e) => (replaced ? { message: e.message } : undefined),
  };
}

/** First `{cancel: true}` wins (and, for compaction, first `{compaction}`). */
export function cancelReducer(): Reducer<unknown, SessionBeforeCompactResult & CancelResult> {
  let found: SessionBeforeCompactResult | undefined;
  return {
    step(_e, r) {
      if (!isObject(r)) return false;
      if (r.cancel === true) found = { cancel: true };
      // Cast: a handler's compaction result is the extension's own object, passed on as pi does.
      else if (isObject(r.compaction)) found = { compaction: r.compaction as never };
      return found !== undefined;
    },
    done: () => found,
  };
}

/** `session_before_tree`: the first `{cancel: true}` or `{summary: {summary}}` wins. */
export function treeReducer(): Reducer<unknown, SessionBeforeTreeResult> {
  let found: SessionBeforeTreeResult | undefined;
  return {
    step(_e, r) {
      if (!isObject(r)) return false;
      if (r.cancel === true) found = { cancel: true };
      else if (isObject(r.summary) && typeof r.summary.summary === "string") found = { summary: { summary: r.summary.summary, ...(r.summary.details !== undefined ? { details: r.summary.details } : {}) } };
      return found !== undefined;
    },
    done: () => found,
  };
}

/** First `{result}` or `{operations}` (an object with `exec`) wins. */
export function userBashReducer(): Reducer<unknown, UserBashEventResult> {
  let found: UserBashEventResult | undefined;
  return {
    step(_e, r) {
      if (!isObject(r)) return false;
      if (isObject(r.result)) found = { result: r.result };
      // Cast: the extension's own operations object; its `exec` was checked to be a function.
      else if (isObject(r.operations) && typeof r.operations.exec === "function") found = { operations: r.operations as never };
      return found !== undefined;
    },
    done: () => found,
  };
}
