// The session's one event stream: subscribers get every event synchronously, in order.
import type { AgentSessionEvent } from "../shared/types.js";

export type SessionListener = (event: AgentSessionEvent) => void;

export class EventHub {
  private listeners: SessionListener[] = [];

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: SessionListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Delivers one event to every subscriber, synchronously and in order. */
  emit(event: AgentSessionEvent): void {
    for (const l of this.listeners) l(event);
  }
}
