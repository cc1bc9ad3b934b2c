// How one prompt becomes agent runs: the pre-flight of a prompt, the loop configuration, the
// handling of every agent event (persist, then extensions and subscribers), and the decision
// what happens after each run (TTSR, retry, compaction, todo reminders, queued messages).
import { runAgentLoop } from "../agent/loop.js";
import type { AgentLoopConfig } from "../agent/types.js";
import type { StreamFn } from "../providers/types.js";
import { PithError } from "../shared/errors.js";
import type { AgentEvent, AgentMessage, AgentSessionEvent, AssistantMessage, BashExecutionMessage, UserContent } from "../shared/types.js";
import { isContextOverflow } from "./compaction/overflow.js";
import type { Compactor } from "./compactor.js";
import type { Conversation } from "./conversation.js";
import { convertToLlm } from "./convert-to-llm.js";
import type { ExtensionHooks } from "./extension-hooks.js";
import type { PromptExtras } from "./prompt-extras.js";
import { userMessage, type MessageQueues } from "./queues.js";
import type { RetryController } from "./retry-controller.js";
import type { Continuation } from "./run-controller.js";
import type { SessionModels } from "./session-models.js";
import type { SessionTools } from "./session-tools.js";
import type { SessionSettings } from "./settings.js";

export interface RunPipelineOptions {
  conversation: Conversation;
  settings: SessionSettings;
  queues: MessageQueues;
  retry: RetryController;
  compactor: Compactor;
  extras: PromptExtras;
  hooks: ExtensionHooks;
  tools: SessionTools;
  models: SessionModels;
  stream: StreamFn;
  cwd: string;
  /** `--provider-session-id`: the provider-side session / prompt-cache id; default: the session id. */
  providerSessionId?: string;
  /** Whether a run is in flight (user bash records wait for it to end). */
  isBusy(): boolean;
  emit(event: AgentSessionEvent): void;
}

export class RunPipeline {
  private pendingBash: BashExecutionMessage[] = [];
  private readonly conversation: Conversation;

  constructor(private readonly o: RunPipelineOptions) {
    this.conversation = o.conversation;
  }

  /**
   * Pre-flight of a prompt; returns the run's prompt messages. The checks a host must hear about
   * at once (model, key, images) run first, then `accept` is called, then the slower work
   * (pre-prompt compaction, extension hooks). Throws to reject the prompt.
   */
  async preparePrompt(text: string, images: UserContent[], signal: AbortSignal, accept: () => void): Promise<AgentMessage[]> {
    const model = this.o.models.require();
    await this.o.models.requireApiKey(model);
    if (images.length > 0 && !model.input.includes("image")) {
      throw new PithError("invalid_request", `Model ${model.provider}/${model.id} does not accept images`);
    }
    accept();
    // Let the acknowledgement (a chain of microtasks in the front door) go out before any event.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.flushPendingBash();
    await this.o.tools.ready();
    this.o.retry.reset();
    this.o.extras.resetForPrompt();
    this.o.hooks.systemPromptOverride = undefined;
    await this.o.compactor.beforePrompt(signal);
    const user = userMessage(text, images);
    const prompts = await this.o.extras.assemblePrompt(user);
    prompts.push(...(await this.o.hooks.beforeAgentStart(user, text)));
    return prompts;
  }

  /** One agent run over the conversation. */
  async runLoop(prompts: AgentMessage[], signal: AbortSignal): Promise<AgentMessage[]> {
    const model = this.o.models.require();
    const apiKey = await this.o.models.apiKey(model.provider);
    const config = this.loopConfig(apiKey);
    return runAgentLoop({ messages: this.conversation.messages, prompts, signal, emit: (e) => this.onAgentEvent(e) }, config);
  }

  private loopConfig(apiKey: string | undefined): AgentLoopConfig {
    const { hooks, extras, queues, settings, tools } = this.o;
    const extensionsOn = hooks.hasExtensions();
    return {
      stream: this.o.stream,
      getCwd: () => this.o.cwd,
      getModel: () => this.o.models.require(),
      getSystemPrompt: () => hooks.systemPromptOverride ?? tools.systemPrompt(),
      getTools: () => tools.active(),
      getStreamOptions: () => {
        const toolChoice = extras.takeForcedToolChoice();
        const { firstByteTimeoutMs, idleTimeoutMs } = settings.retry;
        const sessionId = this.o.providerSessionId ?? this.conversation.log.sessionId;
        const base = { thinkingLevel: this.conversation.thinkingLevel, apiKey, sessionId, firstByteTimeoutMs, idleTimeoutMs };
        return toolChoice ? { ...base, toolChoice } : base;
      },
      convertToLlm,
      transformContext: hooks.hasHandlers("context") ? (m, s) => hooks.transformContext(m, s) : undefined,
      pollSteering: () => queues.pollSteering(),
      pollFollowUps: () => queues.pollFollowUps(),
      getInterruptMode: () => settings.interruptMode,
      wrapToolExecution: extensionsOn ? (call, tool, run) => hooks.wrapToolExecution(call, tool, run) : undefined,
      onAssistantUpdate: (e) => extras.onAssistantUpdate(e),
    };
  }

  /** Every agent event: persist, update state, then deliver to extensions and subscribers. */
  private onAgentEvent(event: AgentEvent): void {
    if (event.type === "message_start" && event.message.role === "assistant") this.o.extras.onAssistantStart();
    const reply = event.type === "message_end" && event.message.role === "assistant" ? event.message : undefined;
    if (reply) this.o.retry.explainNoWait(reply);
    if (event.type === "message_end") this.conversation.persist(event.message);
    if (reply) this.o.extras.onAssistantEnd(reply);
    this.o.hooks.forward(event);
    this.o.emit(event);
    // After the reply's message_end: a retried request that succeeded ends its sequence (engine §5.3).
    if (reply) this.o.retry.onAssistantEnd(reply);
  }

  /** Decides what follows a run that the host did not abort. */
  async afterRun(last: AssistantMessage | undefined, signal: AbortSignal): Promise<Continuation> {
    const ttsr = this.o.extras.takeTtsrContinuation(last);
    if (ttsr) return ttsr;
    if (last?.stopReason === "aborted") return { kind: "stop" };
    const model = this.conversation.model;
    const overflow = !!last && model !== undefined && isContextOverflow(last, model.contextWindow);
    if (await this.o.retry.shouldRetry(last, signal, overflow)) {
      this.conversation.dropTrailingError();
      return { kind: "continue", prompts: [] };
    }
    if (signal.aborted) return { kind: "stop" };
    const compaction = await this.o.compactor.afterRun(last, overflow, signal);
    if (compaction) return compaction;
    if (last && last.stopReason !== "error") {
      const reminder = this.o.extras.todoReminder(last);
      if (reminder) return reminder;
    }
    return this.deliverQueued();
  }

  /** Messages queued after the loop's last poll would otherwise wait for the next prompt. */
  private deliverQueued(): Continuation {
    const q = this.o.queues;
    if (!q.hasSteering && !q.hasFollowUps) return { kind: "stop" };
    const last = this.conversation.messages[this.conversation.messages.length - 1];
    if (last?.role === "assistant" && last.stopReason === "error") return { kind: "stop" };
    const prompts = q.hasSteering ? q.pollSteering() : q.pollFollowUps();
    return { kind: "continue", prompts };
  }

  // ── user bash records ───────────────────────────────────────────────────────

  /** A host `bash` result: into the context now, or after the run that is in flight. */
  recordBash(message: BashExecutionMessage): void {
    if (this.o.isBusy()) {
      this.pendingBash.push(message);
      return;
    }
    this.conversation.add(message);
  }

  /** The session file changed: records meant for the old one are dropped. */
  forgetPendingBash(): void {
    this.pendingBash = [];
  }

  private flushPendingBash(): void {
    for (const m of this.pendingBash.splice(0)) this.conversation.add(m);
  }
}
