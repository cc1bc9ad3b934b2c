// The parts of a prompt run that come from optional subsystems: the eager todo prelude,
// todo reminders, and TTSR stream rules. Extension hooks live in ./extension-hooks.ts.
// The TTSR parser and matcher are imported only when rule files exist.
import type { AgentEvent, AgentMessage, AssistantMessage, SessionEvent, UserMessage } from "../shared/types.js";
import type { ToolChoice } from "../providers/types.js";
import type { Conversation } from "./conversation.js";
import type { MessageQueues } from "./queues.js";
import type { Continuation } from "./run-controller.js";
import type { SessionSettings } from "./settings.js";
import { contentText } from "../store/message-text.js";
import { TodoReminder, eagerPreludeMessage, shouldUseEagerPrelude } from "./todos/index.js";
import type { TtsrMatcher } from "../rules/matcher.js";
import { findRuleFiles, type RuleFileRef } from "../rules/rule-files.js";
import type { TtsrRule } from "../shared/types.js";
import { errorMessage } from "../shared/errors.js";

type TtsrModule = typeof import("../rules/index.js");

export interface PromptExtrasOptions {
  conversation: Conversation;
  settings: SessionSettings;
  queues: MessageQueues;
  /** Whether the active tool list holds `name`. */
  hasTool(name: string): boolean;
  emit(event: SessionEvent): void;
  cwd: string;
  pithHome: string;
  /** Whether the project's rule files (`.pith/rules`) load: only in a trusted folder. */
  projectTrusted(): boolean;
  log(message: string): void;
}

export class PromptExtras {
  private reminder!: TodoReminder;
  private ttsr: TtsrMatcher | undefined;
  private ttsrMod: TtsrModule | undefined;
  /** Pending while the TTSR modules load; awaited before the first prompt is assembled. */
  private ttsrLoading: Promise<void> | undefined;
  private ttsrRules: TtsrRule[] | undefined;
  /** The store whose earlier injections the matcher knows (changes on new/switch/branch). */
  private ttsrStore: unknown;

  private readonly conversation: Conversation;
  private readonly settings: SessionSettings;

  constructor(private readonly deps: PromptExtrasOptions) {
    this.conversation = deps.conversation;
    this.settings = deps.settings;
    this.reload();
  }

  /**
   * Takes the settings and rule files as they are now: at start, and again when the settings
   * change under an idle session (its folder was trusted: the project's rules join).
   */
  reload(): void {
    const { todo, ttsr } = this.settings;
    this.reminder = new TodoReminder({ enabled: todo.enabled && todo.reminders, max: todo.remindersMax });
    this.ttsr = undefined;
    this.ttsrMod = undefined;
    this.ttsrStore = undefined;
    this.ttsrLoading = undefined;
    if (!ttsr.enabled) return;
    const levels = this.deps.projectTrusted() ? (["project", "user"] as const) : (["user"] as const);
    const files = findRuleFiles({ pithHome: this.deps.pithHome, cwd: this.deps.cwd, warn: (m) => this.deps.log(m), levels });
    if (files.length > 0) {
      this.ttsrLoading = this.loadTtsr(files).catch((err: unknown) => this.deps.log(`TTSR rules not loaded: ${errorMessage(err)}`));
    }
  }

  private async loadTtsr(files: RuleFileRef[]): Promise<void> {
    const mod = await import("../rules/index.js");
    const rules = mod.readTtsrRules(files, (m) => this.deps.log(m));
    if (rules.length === 0) return;
    const { interruptMode, repeatMode, repeatGap } = this.settings.ttsr;
    this.ttsrMod = mod;
    this.ttsr = new mod.TtsrMatcher(rules, { cwd: this.deps.cwd, interruptMode, repeatMode, repeatGap });
  }

  /** The rule matcher once loaded; a prompt waits for it so its first reply is watched. */
  private async ttsrReady(): Promise<void> {
    const loading = this.ttsrLoading;
    if (!loading) return;
    this.ttsrLoading = undefined;
    await loading;
    this.ttsr?.resetForPrompt();
    this.restoreTtsrFired();
  }

  // ── prompt assembly ─────────────────────────────────────────────────────────

  resetForPrompt(): void {
    this.reminder.reset();
    this.ttsr?.resetForPrompt();
    this.restoreTtsrFired();
  }

  /**
   * `repeatMode: once` holds per session, across restarts: the first prompt on a
   * store reads back which rules its branch already injected.
   */
  private restoreTtsrFired(): void {
    const store = this.conversation.log;
    if (!this.ttsr || store === this.ttsrStore) return;
    this.ttsrStore = store;
    const mod = this.ttsrMod as TtsrModule;
    this.ttsr.restoreInjected(mod.injectedRuleNames(store.customEntries("custom_message", mod.TTSR_INJECTION_TYPE, true)));
  }

  /** The tool the next model call must call (the eager prelude forces `todo_write` once). */
  private forcedToolChoice: string | undefined;

  /** Consumed by the first model call after it was set. */
  /** The next model request must call this tool. */
  forceTool(name: string): void {
    this.forcedToolChoice = name;
  }

  takeForcedToolChoice(): ToolChoice | undefined {
    const name = this.forcedToolChoice;
    this.forcedToolChoice = undefined;
    return name ? { type: "tool", name } : undefined;
  }

  /** [eager prelude] + user message + pending next-turn messages (extension messages follow). */
  async assemblePrompt(user: UserMessage): Promise<AgentMessage[]> {
    await this.ttsrReady();
    const prompts: AgentMessage[] = [];
    const todo = this.settings.todo;
    const text = contentText(user.content);
    const eager = shouldUseEagerPrelude({
      enabled: todo.enabled,
      eager: todo.eager,
      todos: this.conversation.todos.get(),
      messages: this.conversation.messages,
      promptText: text,
      hasTodoTool: this.deps.hasTool("todo_write"),
    });
    if (eager) {
      prompts.push(eagerPreludeMessage());
      this.forcedToolChoice = "todo_write";
    }
    prompts.push(user);
    prompts.push(...this.deps.queues.takeNextTurn());
    return prompts;
  }

  // ── TTSR ────────────────────────────────────────────────────────────────────

  /**
   * A reply completed normally: rules that matched without interrupting (interruptMode) are
   * delivered as a follow-up, so the correction applies before the run stops.
   */
  onAssistantEnd(message: AssistantMessage): void {
    if (!this.ttsr || message.stopReason === "aborted" || message.stopReason === "error") return;
    const deferred = this.ttsr.takeDeferred();
    if (deferred.length > 0) this.deps.queues.followUp((this.ttsrMod as TtsrModule).buildTtsrInjection(deferred));
  }

  /** A new assistant message starts streaming: rule buffers start afresh. */
  onAssistantStart(): void {
    this.ttsr?.resetStream();
  }

  /** Feeds streamed deltas to the rule matcher; true aborts the stream. */
  onAssistantUpdate(event: AgentEvent & { type: "message_update" }): boolean {
    const matcher = this.ttsr;
    if (!matcher) return false;
    const e = event.assistantMessageEvent;
    let fired: TtsrRule[] | undefined;
    if (e.type === "text_delta") fired = matcher.feed("text", e.delta);
    else if (e.type === "thinking_delta") fired = matcher.feed("thinking", e.delta);
    else if (e.type === "toolcall_delta") {
      const block = e.partial.content[e.contentIndex];
      const call = block?.type === "toolCall" ? { id: block.id, name: block.name, args: block.arguments } : undefined;
      fired = matcher.feed("toolcall", e.delta, call);
    }
    if (!fired || fired.length === 0) return false;
    this.ttsrRules = fired;
    return true;
  }

  /** After a run cut by a rule: announce, discard the partial reply, inject the rule, continue. */
  takeTtsrContinuation(last: AssistantMessage | undefined): Continuation | undefined {
    const rules = this.ttsrRules;
    if (!rules) return undefined;
    this.ttsrRules = undefined;
    this.deps.emit({ type: "ttsr_triggered", rules });
    const msgs = this.conversation.messages;
    if (this.settings.ttsr.contextMode !== "keep") {
      // Drop the interrupted reply and its synthetic tool results from the live context.
      while (msgs.length > 0 && msgs[msgs.length - 1] !== last && msgs[msgs.length - 1].role === "toolResult") msgs.pop();
      if (msgs[msgs.length - 1] === last) msgs.pop();
    }
    const injection = (this.ttsrMod as TtsrModule).buildTtsrInjection(rules);
    msgs.push(injection);
    this.conversation.persist(injection);
    return { kind: "continue", prompts: [] };
  }

  // ── todo reminders ──────────────────────────────────────────────────────────

  todoReminder(last: AssistantMessage): Continuation | undefined {
    if (last.stopReason !== "stop" && last.stopReason !== "length") return undefined;
    if (last.content.some((b) => b.type === "toolCall")) return undefined;
    const next = this.reminder.next(last, this.conversation.todos.get());
    if (!next) return undefined;
    this.deps.emit(next.event);
    // Hidden and in-memory only: a reloaded session does not replay old reminders.
    this.conversation.messages.push(next.message);
    return { kind: "continue", prompts: [] };
  }
}
