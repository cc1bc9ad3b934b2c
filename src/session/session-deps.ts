// What the composition root hands a session. Everything is a value or a narrow interface:
// the session reads no environment and no argv.
import type { ModelRegistry } from "../providers/models/registry.js";
import type { StreamFn } from "../providers/types.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { Model, ThinkingLevel, TodoPhase } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import type { SessionSettings } from "./settings.js";
import type { SessionStore } from "./store/session-store.js";

export interface TodoAccess {
  get(): TodoPhase[];
  set(phases: TodoPhase[]): void;
}

export interface SessionDeps {
  cwd: string;
  pithHome: string;
  settings: SessionSettings;
  registry: ModelRegistry;
  stream: StreamFn;
  /** The session file the process starts with. */
  store: SessionStore;
  /** Where `new_session`/`branch` write files; undefined keeps sessions in memory. */
  sessionDir: string | undefined;
  /** Builds the built-in tools (already filtered by --tools/--no-tools) around the todo state. */
  createTools(todos: TodoAccess): Tool[];
  /** The system prompt for a tool list. */
  buildSystemPrompt(tools: Tool[]): string;
  extensions?: ExtensionRunner;
  /** Model chosen by CLI/settings; a model recorded in the session wins when available. */
  initialModel?: Model;
  initialThinkingLevel?: ThinkingLevel;
  /** `--models` scope for cycle_model. */
  scopedModels?: Model[];
  /** Temp dir for full bash outputs. */
  tempDir: string;
  /** `--provider-session-id`: the provider-side session / prompt-cache id; default: the session id. */
  providerSessionId?: string;
  /** Environment of the host's `bash` commands (credentials filtered out); default: pith's own. */
  childEnv?: Record<string, string>;
  /** Diagnostics (stderr). */
  log(message: string): void;
}
