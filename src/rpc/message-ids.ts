// oh-my-pi's `messageId`: the message_start, every message_update and the message_end of one
// message share an id that no other message in the process has.
import type { AgentSessionEvent } from "../shared/types.js";

let sequence = 0;

/** A fresh id, unique in the process. */
export function nextMessageId(): string {
  sequence++;
  return `msg_${sequence.toString(36)}`;
}

/** Stamps message events of one session's stream (messages do not interleave in it). */
export class MessageIdStamper {
  private current: string | undefined;

  stamp(event: AgentSessionEvent): AgentSessionEvent {
    switch (event.type) {
      case "message_start":
        this.current = nextMessageId();
        return { ...event, messageId: this.current };
      case "message_update":
        this.current ??= nextMessageId();
        return { ...event, messageId: this.current };
      case "message_end": {
        const messageId = this.current ?? nextMessageId();
        this.current = undefined;
        return { ...event, messageId };
      }
      default:
        return event;
    }
  }
}
