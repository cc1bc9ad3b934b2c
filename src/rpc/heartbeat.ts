// `heartbeat` frames (pith's liveness, set_heartbeat / --heartbeat): while on, one frame every
// interval saying what the session is doing and how long since the provider or a tool was last
// heard from, so a host can tell a slow model from a wedged one. `waiting_host` wins while a
// host tool call or an extension dialog waits for the host.
import type { HeartbeatFrame } from "../protocol/index.js";
import type { ActivitySnapshot } from "../session/index.js";

export const MIN_HEARTBEAT_MS = 100;
export const MAX_HEARTBEAT_MS = 3_600_000;

export interface HeartbeatOptions {
  activity(): ActivitySnapshot;
  /** Host tool calls and dialogs the host has not answered yet. */
  waitingOnHost(): boolean;
  write(frame: HeartbeatFrame): void;
}

export class Heartbeat {
  private timer: NodeJS.Timeout | undefined;
  private interval = 0;

  constructor(private readonly o: HeartbeatOptions) {}

  get intervalMs(): number {
    return this.interval;
  }

  /** 0 turns it off; anything else must be a whole number of ms in [100, 3600000]. */
  set(intervalMs: unknown): number {
    if (typeof intervalMs !== "number" || !Number.isInteger(intervalMs) || intervalMs < 0) {
      throw new Error(`Invalid "intervalMs": expected 0 (off) or a whole number of milliseconds from ${MIN_HEARTBEAT_MS} to ${MAX_HEARTBEAT_MS}`);
    }
    if (intervalMs !== 0 && (intervalMs < MIN_HEARTBEAT_MS || intervalMs > MAX_HEARTBEAT_MS)) {
      throw new Error(`Invalid "intervalMs": ${intervalMs} is outside ${MIN_HEARTBEAT_MS} … ${MAX_HEARTBEAT_MS} (0 turns the heartbeat off)`);
    }
    this.stop();
    this.interval = intervalMs;
    if (intervalMs > 0) {
      this.timer = setInterval(() => this.beat(), intervalMs);
      this.timer.unref();
    }
    return intervalMs;
  }

  /** The frame for now (also what each tick writes). */
  frame(): HeartbeatFrame {
    const a = this.o.activity();
    const phase = this.o.waitingOnHost() ? "waiting_host" : a.phase;
    return { type: "heartbeat", phase, sinceActivityMs: a.sinceActivityMs, ...(a.promptId !== undefined ? { promptId: a.promptId } : {}) };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.interval = 0;
  }

  private beat(): void {
    this.o.write(this.frame());
  }
}
