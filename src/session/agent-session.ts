// AgentSession: the facade a mode (RPC, print, json) drives. It owns the in-memory context,
// the queues, the run controller and the session store, and emits AgentSessionEvents.
// It does not know it is driven over RPC.
import type { InterruptMode } from "../agent/types.js";
import { PithError } from "../shared/errors.js";
import type {
  AgentMessage,
  AgentSessionEvent,
  AssistantMessage,
  BashExecutionMessage,
  Model,
  ThinkingLevel,
  TodoPhase,
  UserContent,
} from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import { MessageQueues, userMessage, type QueueMode } from "./queues.js";
import { RunController } from "./run-controller.js";
import { RetryController } from "./retry-controller.js";
import type { SessionSettings } from "./settings.js";
import type { SessionDeps } from "./session-deps.js";
import { SessionRuntime } from "./session-runtime.js";
import { buildSessionState, type SessionState } from "./session-state.js";

export const BUSY_ERROR =
  "Agent is already processing. Use steer() or followUp() to queue messages, or wait for completion.";

export type StreamingBehavior = "steer" | "followUp";

export interface PromptOptions {
  images?: UserContent[];
  streamingBehavior?: StreamingBehavior;
}

/**
 * A started prompt: `accepted` settles after the pre-flight checks; `done` resolves when every
 * continuation has settled, and rejects only when the prompt failed after it was accepted.
 */
export interface PromptHandle {
  accepted: Promise<void>;
  done: Promise<void>;
}

export type SessionListener = (event: AgentSessionEvent) => void;

export class AgentSession {
  readonly settings: SessionSettings;
  readonly queues: MessageQueues;
  readonly runs: RunController;
  readonly retry: RetryController;
  readonly rt: SessionRuntime;
  private listeners: SessionListener[] = [];
  /** Live model discovery started by the mode; `get_available_models` waits for it (bounded). */
  discovery: Promise<void> | undefined;

  constructor(readonly deps: SessionDeps) {
    this.settings = structuredClone(deps.settings);
    this.queues = new MessageQueues(this.settings);
    this.retry = new RetryController(() => this.settings.retry, (e) => this.emit(e));
    this.rt = new SessionRuntime(this, deps);
    this.runs = new RunController({
      runLoop: (prompts, signal) => this.rt.runLoop(prompts, signal),
      afterRun: (last, signal) => this.rt.afterRun(last, signal),
      onInternalError: (message) => deps.log(`internal error: ${message}`),
    });
  }

  // ── events ────────────────────────────────────────────────────────────────

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

  // ── state ─────────────────────────────────────────────────────────────────

  get isStreaming(): boolean {
    return this.runs.isBusy;
  }
  get messages(): AgentMessage[] {
    return this.rt.messages;
  }
  get model(): Model | undefined {
    return this.rt.model;
  }
  get thinkingLevel(): ThinkingLevel | undefined {
    return this.rt.thinkingLevel;
  }
  get interruptMode(): InterruptMode {
    return this.settings.interruptMode;
  }

  getState(): SessionState {
    return buildSessionState(this);
  }

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
  setAutoRetry(enabled: boolean): void {
    this.settings.retry.enabled = enabled;
  }
  get autoCompactionEnabled(): boolean {
    return this.settings.compaction.enabled && this.settings.compaction.strategy !== "off";
  }

  // ── prompting ─────────────────────────────────────────────────────────────

  /**
   * Starts the prompt pipeline. Extension commands run immediately; while busy the message is
   * queued per `streamingBehavior` or rejected with the busy error.
   */
  prompt(text: string, options: PromptOptions = {}): PromptHandle {
    if (typeof text !== "string") {
      const err = Promise.reject(new PithError("invalid_request", 'Invalid "message": expected string'));
      return { accepted: err, done: err.catch(() => undefined) };
    }
    if (this.rt.isExtensionCommand(text)) {
      const done = this.rt.runExtensionCommand(text);
      return { accepted: Promise.resolve(), done };
    }
    if (this.isStreaming) {
      const behavior = options.streamingBehavior;
      if (!behavior) {
        const err = Promise.reject(new PithError("busy", BUSY_ERROR));
        return { accepted: err, done: err.catch(() => undefined) };
      }
      const message = userMessage(text, options.images);
      if (behavior === "followUp") this.queues.followUp(message);
      else this.queues.steer(message);
      return { accepted: Promise.resolve(), done: Promise.resolve() };
    }
    let accept!: () => void;
    let reject!: (err: unknown) => void;
    const accepted = new Promise<void>((res, rej) => {
      accept = res;
      reject = rej;
    });
    let acceptedNow = false;
    const done = this.runs.start(async (signal) => {
      try {
        return await this.rt.preparePrompt(text, options.images ?? [], signal, () => {
          acceptedNow = true;
          accept();
        });
      } catch (err) {
        reject(err);
        throw err;
      }
    });
    // `done` rejects only for failures after the ack (a late error for the host, §2.4).
    return { accepted, done: done.catch((err) => (acceptedNow ? Promise.reject(err) : undefined)) };
  }

  /** Queues a steering message; never starts a run. */
  steer(text: string, images: UserContent[] = []): void {
    this.rt.assertQueueable(text);
    this.queues.steer(userMessage(text, images));
  }

  /** Queues a follow-up message; never starts a run. */
  followUp(text: string, images: UserContent[] = []): void {
    this.rt.assertQueueable(text);
    this.queues.followUp(userMessage(text, images));
  }

  /**
   * Cancels the retry backoff, a running compaction (the session stays as it was), the
   * continuations and the running run; resolves once idle.
   */
  async abort(): Promise<void> {
    this.retry.cancelBackoff();
    this.rt.compactor.abort();
    await this.runs.abort();
  }

  /** Resolves when nothing is in flight. */
  waitForIdle(): Promise<void> {
    return this.runs.whenIdle();
  }

  abortRetry(): void {
    this.retry.cancelBackoff();
  }

  // ── delegated operations ──────────────────────────────────────────────────

  get todos(): TodoPhase[] {
    return this.rt.todos.get();
  }
  setTodos(phases: unknown): TodoPhase[] {
    return this.rt.setTodos(phases);
  }
  activeTools(): Tool[] {
    return this.rt.activeTools();
  }
  get systemPrompt(): string {
    return this.rt.systemPrompt;
  }
  lastAssistantText(): string | undefined {
    return lastAssistantText(this.rt.messages);
  }
  recordBash(message: BashExecutionMessage): void {
    this.rt.recordBash(message);
  }
}

function lastAssistantText(messages: AgentMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    if (m.stopReason === "aborted" && m.content.length === 0) continue;
    const text = (m as AssistantMessage).content
      .filter((b) => b.type === "text")
      .map((b) => (b as { text: string }).text)
      .join("")
      .trim();
    return text || undefined;
  }
  return undefined;
}
