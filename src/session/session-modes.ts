// The per-session switches a host flips at run time: queue and
// interrupt modes, auto-compaction, auto-retry. They change this session only, never a file.
import type { InterruptMode } from "../agent/types.js";
import type { MessageQueues, QueueMode } from "./queues.js";
import type { SessionSettings } from "./settings.js";

export class SessionModes {
  constructor(
    private readonly settings: SessionSettings,
    private readonly queues: MessageQueues,
  ) {}

  setSteeringMode(mode: QueueMode): void {
    this.settings.steeringMode = mode;
    this.queues.steeringMode = mode;
  }
  setFollowUpMode(mode: QueueMode): void {
    this.settings.followUpMode = mode;
    this.queues.followUpMode = mode;
  }
  setInterruptMode(mode: InterruptMode): void {
    this.settings.interruptMode = mode;
  }
  setAutoCompaction(enabled: boolean): void {
    this.settings.compaction.enabled = enabled;
    if (enabled && this.settings.compaction.strategy === "off") this.settings.compaction.strategy = "context-full";
  }
  get autoCompactionEnabled(): boolean {
    return this.settings.compaction.enabled && this.settings.compaction.strategy !== "off";
  }
  setAutoRetry(enabled: boolean): void {
    this.settings.retry.enabled = enabled;
  }
}
