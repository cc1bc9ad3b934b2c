// Session events → stdout frames. Text/thinking/tool-call deltas are coalesced: consecutive
// deltas of one content block merge into one frame, flushed after a short window, before any
// other frame, or later when stdout is backed up (so a slow host bounds memory instead of
// growing a queue). In delta-only mode a `message_update` carries just the delta. A subagent's
// `message_update` inside `subagent_event` is coalesced (and shaped) the same way, per subagent:
// each carries the whole message so far, so uncoalesced they grow quadratically with the answer.
import type { OutboundFrame } from "../protocol/index.js";
import type { AgentSessionEvent, AssistantUpdateEvent } from "../shared/types.js";
import { EventFilter } from "./event-filter.js";

type DeltaEvent = Extract<AssistantUpdateEvent, { type: "text_delta" | "thinking_delta" | "toolcall_delta" }>;
type UpdateFrame = Extract<AgentSessionEvent, { type: "message_update" }>;

/** pith's delta-only `message_update` (set_delta_streaming): the sub-event without `partial`. */
export interface DeltaOnlyUpdateFrame {
  type: "message_update";
  assistantMessageEvent: Omit<AssistantUpdateEvent, "partial">;
  messageId?: string;
}

/** Everything the RPC front door writes: responses, events, dialogs, host tool calls, ready. */
export type RpcFrame = OutboundFrame | DeltaOnlyUpdateFrame;

/** Where frames go, one typed write each (the transport's frame writer). */
export interface FrameSink {
  /** `final`: the frame's content will not change, so it may be serialised later (see FrameWriter). */
  write(frame: RpcFrame, final?: boolean): void;
  /** Bytes handed to the sink but not yet accepted by the OS. */
  readonly pendingBytes: number;
  /** A session event the event filter kept from the host (framing still tracks run bounds). */
  skipped?(event: AgentSessionEvent): void;
}

const COALESCE_MS = 16;
/** Above this many unwritten bytes, deltas keep merging instead of being written. */
const BACKPRESSURE_BYTES = 1 << 20;

export class EventFramer {
  deltaOnly: boolean;
  /** set_event_filter: which session event types `push` writes. */
  readonly filter = new EventFilter();
  /** Held deltas by stream: "" for this session's own, `sub:<id>` for a subagent's. */
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: FrameSink,
    options: { deltaOnly?: boolean } = {},
  ) {
    this.deltaOnly = options.deltaOnly ?? false;
  }

  /** Writes a frame that is not a session event (response, dialog, host tool call), in order. */
  write(frame: RpcFrame): void {
    this.flush();
    this.sink.write(frame);
  }

  /** Handles one event in order; deltas may be held back briefly. */
  push(event: AgentSessionEvent): void {
    if (!this.filter.passes(event.type)) {
      this.sink.skipped?.(event);
      return;
    }
    if (event.type === "message_update" && isDelta(event.assistantMessageEvent)) {
      this.pushDelta("", { frame: event, delta: event.assistantMessageEvent, parts: [event.assistantMessageEvent.delta] });
      return;
    }
    const inner = event.type === "subagent_event" ? subagentUpdate(event.payload.event) : undefined;
    if (event.type === "subagent_event" && inner && isDelta(inner.assistantMessageEvent)) {
      const sub = event.payload.id;
      this.pushDelta(`sub:${sub}`, { frame: inner, delta: inner.assistantMessageEvent, parts: [inner.assistantMessageEvent.delta], sub });
      return;
    }
    this.flush();
    if (event.type === "message_update") this.sink.write(this.shape(event));
    else if (event.type === "subagent_event" && inner) this.sink.write(this.wrap(event.payload.id, this.shape(inner)));
    else this.sink.write(event, isFinal(event));
  }

  /** Writes any held delta now. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    for (const key of [...this.pending.keys()]) this.flushOne(key);
  }

  private flushOne(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    const delta = { ...p.delta, delta: p.parts.length === 1 ? p.parts[0] : p.parts.join("") };
    const frame = this.shape({ ...p.frame, assistantMessageEvent: delta });
    this.sink.write(p.sub === undefined ? frame : this.wrap(p.sub, frame));
  }

  private pushDelta(key: string, next: Pending): void {
    const p = this.pending.get(key);
    if (p && p.delta.type === next.delta.type && p.delta.contentIndex === next.delta.contentIndex) {
      p.parts.push(next.delta.delta);
      p.frame = next.frame;
      p.delta = next.delta;
      return;
    }
    this.flushOne(key);
    this.pending.set(key, next);
    if (!this.timer) this.arm();
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.sink.pendingBytes > BACKPRESSURE_BYTES) this.arm();
      else this.flush();
    }, COALESCE_MS);
  }

  private wrap(id: string, frame: RpcFrame): RpcFrame {
    return { type: "subagent_event", payload: { id, event: frame as Extract<OutboundFrame, { type: "subagent_event" }>["payload"]["event"] } };
  }

  private shape(frame: UpdateFrame): RpcFrame {
    if (!this.deltaOnly) return frame;
    const { partial: _partial, ...rest } = frame.assistantMessageEvent;
    const id = frame.messageId !== undefined ? { messageId: frame.messageId } : {};
    return { type: "message_update", assistantMessageEvent: rest, ...id };
  }
}

interface Pending {
  frame: UpdateFrame;
  delta: DeltaEvent;
  parts: string[];
  /** The subagent whose stream this is (written inside subagent_event); undefined: this session's. */
  sub?: string;
}

/** A subagent's event when it is a `message_update` with its sub-event. */
function subagentUpdate(e: { type: string }): UpdateFrame | undefined {
  const u = e as Partial<UpdateFrame>;
  return e.type === "message_update" && u.assistantMessageEvent && typeof u.assistantMessageEvent === "object" ? (e as UpdateFrame) : undefined;
}

/**
 * Events whose objects never change after they are emitted: the ended messages and results a
 * run produces (the live assistant message is only ever sent in message_start / message_update).
 */
function isFinal(event: AgentSessionEvent): boolean {
  switch (event.type) {
    case "message_end":
    case "tool_execution_end":
    case "turn_end":
    case "agent_end":
      return true;
    case "message_start":
      return event.message.role !== "assistant";
    default:
      return false;
  }
}

function isDelta(e: AssistantUpdateEvent): e is DeltaEvent {
  return e.type === "text_delta" || e.type === "thinking_delta" || e.type === "toolcall_delta";
}
