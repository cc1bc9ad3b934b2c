// The steering and follow-up queues. FIFO, with a dequeue
// mode each; "next turn" holds hidden messages waiting for the next prompt.
import type { AgentMessage, UserContent, UserMessage } from "../shared/types.js";
import { contentText } from "../store/message-text.js";

export type QueueMode = "all" | "one-at-a-time";

export class MessageQueues {
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  private steering: AgentMessage[] = [];
  private followUps: AgentMessage[] = [];
  private nextTurn: AgentMessage[] = [];

  constructor(modes: { steeringMode: QueueMode; followUpMode: QueueMode }) {
    this.steeringMode = modes.steeringMode;
    this.followUpMode = modes.followUpMode;
  }

  steer(message: AgentMessage): void {
    this.steering.push(message);
  }
  followUp(message: AgentMessage): void {
    this.followUps.push(message);
  }
  /** Hidden messages delivered with the next prompt (e.g. a todo_write error reminder). */
  addNextTurn(message: AgentMessage): void {
    this.nextTurn.push(message);
  }

  pollSteering(): AgentMessage[] {
    return take(this.steering, this.steeringMode);
  }
  pollFollowUps(): AgentMessage[] {
    return take(this.followUps, this.followUpMode);
  }
  takeNextTurn(): AgentMessage[] {
    return this.nextTurn.splice(0);
  }

  /** The steering and follow-up messages waiting, in that order (not taken). */
  peek(): AgentMessage[] {
    return [...this.steering, ...this.followUps];
  }

  get count(): number {
    return this.steering.length + this.followUps.length + this.nextTurn.length;
  }
  get hasSteering(): boolean {
    return this.steering.length > 0;
  }
  get hasFollowUps(): boolean {
    return this.followUps.length > 0;
  }

  /** pi's `clear_queue`: drops the steering and follow-up queues (not next-turn messages), returning what they held. */
  drain(): { steering: AgentMessage[]; followUp: AgentMessage[] } {
    const dropped = { steering: this.steering, followUp: this.followUps };
    this.steering = [];
    this.followUps = [];
    return dropped;
  }

  /** Empties every queue; returns the steering and follow-up messages that were dropped. */
  clear(): AgentMessage[] {
    const dropped = [...this.steering, ...this.followUps];
    this.steering = [];
    this.followUps = [];
    this.nextTurn = [];
    return dropped;
  }
}

/** The text of a queued message (pi's `clear_queue` answers with texts). */
export function queuedText(message: AgentMessage): string {
  return "content" in message ? contentText(message.content) : "";
}

function take(queue: AgentMessage[], mode: QueueMode): AgentMessage[] {
  if (queue.length === 0) return [];
  return mode === "one-at-a-time" ? queue.splice(0, 1) : queue.splice(0);
}

/** A user message as prompts, steers and follow-ups create it. */
export function userMessage(text: string, images: UserContent[] = [], now = Date.now()): UserMessage {
  return { role: "user", content: [{ type: "text", text }, ...images], attribution: "user", timestamp: now };
}
