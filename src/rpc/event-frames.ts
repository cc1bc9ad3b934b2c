// Session events → stdout frames. Text/thinking/tool-call deltas are coalesced: consecutive
// deltas of one content block merge into one frame, flushed after a short window, before any
// other frame, or later when stdout is backed up (so a slow host bounds memory instead of
// growing a queue). In delta-only mode a `message_update` carries just the delta.
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
  write(frame: RpcFrame): void;
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
  private pending: { frame: UpdateFrame; delta: DeltaEvent; parts: string[] } | undefined;
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
      this.pushDelta(event, event.assistantMessageEvent);
      return;
    }
    this.flush();
    this.sink.write(event.type === "message_update" ? this.shape(event) : event);
  }

  /** Writes any held delta now. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    const delta = { ...p.delta, delta: p.parts.length === 1 ? p.parts[0] : p.parts.join("") };
    this.sink.write(this.shape({ ...p.frame, assistantMessageEvent: delta }));
  }

  private pushDelta(frame: UpdateFrame, delta: DeltaEvent): void {
    const p = this.pending;
    if (p && p.delta.type === delta.type && p.delta.contentIndex === delta.contentIndex) {
      p.parts.push(delta.delta);
      p.frame = frame;
      p.delta = delta;
      return;
    }
    this.flush();
    this.pending = { frame, delta, parts: [delta.delta] };
    this.arm();
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.sink.pendingBytes > BACKPRESSURE_BYTES) this.arm();
      else this.flush();
    }, COALESCE_MS);
  }

  private shape(frame: UpdateFrame): RpcFrame {
    if (!this.deltaOnly) return frame;
    const { partial: _partial, ...rest } = frame.assistantMessageEvent;
    const id = frame.messageId !== undefined ? { messageId: frame.messageId } : {};
    return { type: "message_update", assistantMessageEvent: rest, ...id };
  }
}

function isDelta(e: AssistantUpdateEvent): e is DeltaEvent {
  return e.type === "text_delta" || e.type === "thinking_delta" || e.type === "toolcall_delta";
}
