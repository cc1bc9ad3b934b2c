// The conversation a session holds: its session file (log), the in-memory context rebuilt from
// the log's current branch, the model and thinking level in force, and the todo list derived
// from history. Every collaborator that reads or changes the context gets this object; it knows
// none of them.
import { insertMissingResults, syntheticResult } from "../agent/synthetic.js";
import { resolveThinkingLevel } from "../providers/models/thinking.js";
import type { AgentMessage, Model, ThinkingLevel } from "../shared/types.js";
import { INTERRUPTED_TOOL_TEXT } from "./convert-to-llm.js";
import { buildSessionContext } from "../store/build-context.js";
import type { SessionLog } from "../store/session-log.js";
import { TodoState, todosFromHistory } from "./todos/index.js";

/** How recorded model references become usable models (the model registry satisfies it). */
export interface ModelResolver {
  find(provider: string, modelId: string): Model | undefined;
  hasCredentials(provider: string): boolean;
}

export interface ConversationOptions {
  log: SessionLog;
  models: ModelResolver;
  todos: TodoState;
  /** Diagnostics (stderr). */
  warn(message: string): void;
  /** Model chosen by CLI/settings; a model recorded in the session wins when available. */
  initialModel?: Model;
  initialThinkingLevel?: ThinkingLevel;
}

export class Conversation {
  /** The LLM-facing context of the current branch (the agent loop appends to it). */
  messages: AgentMessage[] = [];
  model: Model | undefined;
  thinkingLevel: ThinkingLevel | undefined;
  readonly todos: TodoState;
  private current: SessionLog;
  private readonly models: ModelResolver;
  private readonly warn: (message: string) => void;

  constructor(options: ConversationOptions) {
    this.current = options.log;
    this.models = options.models;
    this.todos = options.todos;
    this.warn = options.warn;
    this.load(options.initialModel, options.initialThinkingLevel);
  }

  /** The open session file. */
  get log(): SessionLog {
    return this.current;
  }

  /** Rebuilds context, model and thinking level from the log's current branch. */
  load(fallbackModel?: Model, fallbackThinking?: ThinkingLevel): void {
    const ctx = buildSessionContext(this.current);
    this.messages = ctx.messages;
    // A tool call whose result never reached the file (a crash mid-tool, an older version) gets
    // one in the context, so the next request pairs it; the file itself is never rewritten.
    insertMissingResults(this.messages, this.messages, (call, assistant) => syntheticResult(call, INTERRUPTED_TOOL_TEXT, assistant.timestamp));
    const recorded = ctx.model ? this.models.find(ctx.model.provider, ctx.model.modelId) : undefined;
    const usable = recorded && this.models.hasCredentials(recorded.provider) ? recorded : undefined;
    this.model = usable ?? fallbackModel ?? this.model;
    const level = ctx.thinkingLevel ?? fallbackThinking ?? this.thinkingLevel;
    this.thinkingLevel = this.model ? resolveThinkingLevel(this.model, level) : level;
    this.todos.set(todosFromHistory(this.messages));
  }

  /** Replaces the log (new/switch/branch/clone), closing the old one, and reloads from it. */
  replaceLog(log: SessionLog): void {
    if (log !== this.current) this.current.close();
    this.current = log;
    this.load();
  }

  /**
   * Writes a message to the log. A message that cannot be stored is reported and then fails what
   * wrote it (the run ends with that error): the host never hears of it as stored.
   */
  persist(message: AgentMessage): void {
    try {
      this.current.appendMessage(message);
    } catch (err) {
      this.warn(`failed to persist a message: ${(err as Error).message}`);
      throw err;
    }
  }

  /** Adds a message to the context and the log. */
  add(message: AgentMessage): void {
    this.messages.push(message);
    this.persist(message);
  }

  /** Records a model switch in the log (never in the settings files). */
  setModel(model: Model): void {
    this.model = model;
    this.current.append({ type: "model_change", provider: model.provider, modelId: model.id });
  }

  /** Records a thinking-level change when it changes. */
  setThinkingLevel(level: ThinkingLevel | undefined): void {
    if (this.thinkingLevel === level) return;
    this.thinkingLevel = level;
    this.current.append({ type: "thinking_level_change", thinkingLevel: level ?? null });
  }

  /** Removes a trailing error assistant message from the in-memory context (kept in the file). */
  dropTrailingError(): void {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === "assistant" && last.stopReason === "error") this.messages.pop();
  }
}
