// How one prompt becomes agent runs: the pre-flight of a prompt, the loop configuration, the
// handling of every agent event (persist, then extensions and subscribers), and the decision
// what happens after each run (TTSR, retry, compaction, todo reminders, queued messages).
import { runAgentLoop } from "../agent/loop.js";
import type { AgentLoopConfig } from "../agent/types.js";
import type { StreamFn } from "../providers/types.js";
import { PithError } from "../shared/errors.js";
import type { AgentEvent, AgentMessage, AgentSessionEvent, AssistantMessage, BashExecutionMessage, UserContent, UserMessage } from "../shared/types.js";
import { isContextOverflow } from "./compaction/overflow.js";
import type { Compactor } from "./compactor.js";
import type { Conversation } from "./conversation.js";
import { convertToLlm } from "./convert-to-llm.js";
import type { ExtensionHooks } from "./extension-hooks.js";
import { gateToolCall } from "./permission-gate.js";
import type { PromptExtras } from "./prompt-extras.js";
import type { PromptTracker } from "./prompt-tracker.js";
import { userMessage, type MessageQueues } from "./queues.js";
import type { RetryController } from "./retry-controller.js";
import type { Continuation } from "./run-controller.js";
import type { SessionModels } from "./session-models.js";
import type { SessionPermissions } from "./session-permissions.js";
import type { SessionTools } from "./session-tools.js";
import type { SessionSettings } from "./settings.js";
import type { StructuredOutput } from "./structured-output.js";
import { SUBMIT_RESULT, type OutputSpec } from "../tools/index.js";

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
  /** The permission check before every tool call (after the extension `tool_call` hooks). */
  permissions: SessionPermissions;
  stream: StreamFn;
  /** Which run took which prompting message; stamps `promptId` on run events. */
  tracker: PromptTracker;
  /** The output schema of a structured prompt: submit_result, reminders, the outcome. */
  structured: StructuredOutput;
  cwd: string;
  /** `--provider-session-id`: the provider-side session / prompt-cache id; default: the session id. */
  providerSessionId?: string;
  /** Before a prompt's first model request (MCP servers still starting); bounded, abortable. */
  beforePrompt?(signal: AbortSignal): Promise<void>;
  /** Whether a run is in flight (user bash records wait for it to end). */
  isBusy(): boolean;
  emit(event: AgentSessionEvent): void;
  /** A user message entered the context and was recorded as entry `entryId` (file checkpoints). */
  onUserMessage?(entryId: string, message: UserMessage): void;
  /** Awaited before each tool call executes (file checkpoints). */
  beforeTool?(): Promise<void>;
  /** The last say before a prompt's work settles (extensions' `agent_before_settle`); true: one more run. */
  beforeSettle?(last: AssistantMessage | undefined): Promise<boolean>;
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
  async preparePrompt(text: string, images: UserContent[], signal: AbortSignal, accept: () => void, output?: OutputSpec): Promise<AgentMessage[]> {
    await this.preflight(images, signal, accept);
    const user = userMessage(text, images);
    const prompts = await this.o.extras.assemblePrompt(user);
    prompts.splice(prompts.indexOf(user) + 1, 0, ...this.o.structured.begin(output));
    prompts.push(...(await this.o.hooks.beforeAgentStart(user, text)));
    return prompts;
  }

  /** A run started by an extension's message (`sendMessage` with `triggerTurn`): the same pre-flight, those messages as the prompt. */
  async prepareMessages(messages: AgentMessage[], signal: AbortSignal, accept: () => void): Promise<AgentMessage[]> {
    await this.preflight([], signal, accept);
    return messages;
  }

  private async preflight(images: UserContent[], signal: AbortSignal, accept: () => void): Promise<void> {
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
    await this.o.beforePrompt?.(signal);
  }

  /** One agent run over the conversation. */
  async runLoop(prompts: AgentMessage[], signal: AbortSignal): Promise<AgentMessage[]> {
    const model = this.o.models.require();
    const apiKey = await this.o.models.apiKey(model.provider);
    const config = this.loopConfig(apiKey, signal);
    const added = await runAgentLoop({ messages: this.conversation.messages, prompts, signal, emit: (e) => this.onAgentEvent(e) }, config);
    this.o.tracker.runEnded(added);
    return added;
  }

  private loopConfig(apiKey: string | undefined, signal: AbortSignal): AgentLoopConfig {
    const { hooks, extras, queues, settings, tools, tracker, structured, permissions } = this.o;
    const extensionsOn = hooks.hasExtensions();
    const beforeTool = this.o.beforeTool;
    const gate = { permissions, cwd: this.o.cwd, signal };
    return {
      stream: this.o.stream,
      getCwd: () => this.o.cwd,
      getModel: () => this.o.models.require(),
      getSystemPrompt: () => hooks.systemPromptOverride ?? tools.systemPrompt(),
      getTools: () => [...tools.active(), ...structured.tools()],
      shouldEndAfterTools: () => structured.submitted,
      getStreamOptions: () => {
        const toolChoice = extras.takeForcedToolChoice();
        const { firstByteTimeoutMs, idleTimeoutMs } = settings.retry;
        const sessionId = this.o.providerSessionId ?? this.conversation.log.sessionId;
        const cacheRetention = settings.cacheRetention ?? "short";
        const base = { thinkingLevel: this.conversation.thinkingLevel, apiKey, sessionId, cacheRetention, firstByteTimeoutMs, idleTimeoutMs };
        return toolChoice ? { ...base, toolChoice } : base;
      },
      convertToLlm,
      transformContext: hooks.hasHandlers("context") ? (m, s) => hooks.transformContext(m, s) : undefined,
      beforeMessageEnd: hooks.hasHandlers("message_end") ? (m) => hooks.messageEnd(m) : undefined,
      pollSteering: () => structured.consumed(tracker.consumed(queues.pollSteering())),
      pollFollowUps: () => structured.consumed(tracker.consumed(queues.pollFollowUps())),
      getInterruptMode: () => settings.interruptMode,
      wrapToolExecution: (call, tool, run) => {
        // extension hooks, then the permission rules, then the file checkpoint, then the tool
        const afterCheckpoint = beforeTool ? async () => (await beforeTool(), run()) : run;
        const gated = () => gateToolCall(gate, call, tool, afterCheckpoint);
        return extensionsOn ? hooks.wrapToolExecution(call, tool, gated) : gated();
      },
      onAssistantUpdate: (e) => extras.onAssistantUpdate(e),
    };
  }

  /** Every agent event: persist, update state, then deliver to extensions and subscribers. */
  private onAgentEvent(agentEvent: AgentEvent): void {
    const event = this.withPromptId(agentEvent);
    if (event.type === "message_start" && event.message.role === "assistant") this.o.extras.onAssistantStart();
    const reply = event.type === "message_end" && event.message.role === "assistant" ? event.message : undefined;
    if (reply) this.o.retry.explainNoWait(reply);
    if (event.type === "message_end") this.conversation.persist(event.message);
    if (event.type === "message_end" && event.message.role === "user" && event.message.attribution === "user") this.userMessageRecorded(event.message);
    if (reply) this.o.extras.onAssistantEnd(reply);
    this.o.hooks.forward(event);
    this.o.emit(event);
    // After the reply's message_end: a retried request that succeeded ends its sequence.
    if (reply) this.o.retry.onAssistantEnd(reply);
  }

  /**
   * Decides what follows a run that the host did not abort. When nothing would, extensions'
   * `agent_before_settle` may still ask for one more run.
   */
  async afterRun(last: AssistantMessage | undefined, signal: AbortSignal): Promise<Continuation> {
    const next = await this.decide(last, signal);
    if (next.kind === "continue" || signal.aborted || !this.o.beforeSettle) return next;
    return (await this.o.beforeSettle(last)) ? { kind: "continue", prompts: [] } : next;
  }

  private async decide(last: AssistantMessage | undefined, signal: AbortSignal): Promise<Continuation> {
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
    const structured = this.o.structured.afterRun(last);
    const outcome = this.o.structured.takeOutcome();
    if (outcome) this.o.tracker.setStructured(outcome);
    if (structured) {
      this.o.extras.forceTool(SUBMIT_RESULT);
      return { kind: "continue", prompts: [structured.remind] };
    }
    if (outcome) return this.deliverQueued();
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
    const prompts = this.o.structured.consumed(this.o.tracker.handOff(q.hasSteering ? q.pollSteering() : q.pollFollowUps()));
    return { kind: "continue", prompts };
  }

  /** agent_start, turn_start and agent_end name the command whose message started the run. */
  private withPromptId(event: AgentEvent): AgentEvent {
    if (event.type !== "agent_start" && event.type !== "turn_start" && event.type !== "agent_end") return event;
    const promptId = this.o.tracker.runPromptId;
    return promptId === undefined ? event : { ...event, promptId };
  }

  private userMessageRecorded(message: UserMessage): void {
    const entry = this.conversation.log.leafId ? this.conversation.log.getEntry(this.conversation.log.leafId) : undefined;
    if (entry?.type === "message" && entry.message.role === "user") this.o.onUserMessage?.(entry.id, message);
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
