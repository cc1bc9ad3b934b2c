// The tools a session offers the model: the built-in ones (already filtered by --tools), the
// extensions' and the host's (`set_host_tools`), and the system prompt written for that list.
import type { ExtensionRunner } from "../extensions/index.js";
import { PithError } from "../shared/errors.js";
import type { TodoPhase } from "../shared/types.js";
import { namePatternMatcher } from "../tools/name-patterns.js";
import type { Tool } from "../tools/types.js";
import { normalizeTodoPhases, type TodoState } from "./todos/index.js";

/** The todo list the built-in `todo_write` tool reads and replaces. */
export interface TodoAccess {
  get(): TodoPhase[];
  set(phases: TodoPhase[]): void;
}

export interface SessionToolsOptions {
  builtin: Tool[];
  /** The session's todo list (what `todo_write` edits and `set_todos` replaces). */
  todos: TodoState;
  runner(): ExtensionRunner | undefined;
  /** The system prompt for a tool list. */
  buildSystemPrompt(tools: Tool[]): string;
  /** The MCP servers' tools (session-mcp.ts), offered after all others. */
  mcpTools?(): Tool[];
  /** Tools offered through `call_tool` instead of their own definition (setting `tools.deferred`). */
  isDeferred?(name: string): boolean;
  /** Which extension tools this session offers (a subagent's agent definition); all when absent. */
  allowExtensionTool?(name: string): boolean;
}

/** `tools.deferred` as a test: exact names, or `prefix*` for every name with that prefix. */
export function deferredMatcher(patterns: readonly string[]): ((name: string) => boolean) | undefined {
  return patterns.length === 0 ? undefined : namePatternMatcher(patterns);
}

export class SessionTools {
  private host: Tool[] = [];
  private cachedPrompt: { tools: Tool[]; extra: string; text: string } | undefined;
  /** `pi.setActiveTools`: the names offered from now on (hidden ones included); undefined: the default list. */
  private selection: Set<string> | undefined;
  /** One deferred view per tool object, so the list keeps its identities between calls. */
  private readonly deferredViews = new WeakMap<Tool, Tool>();

  constructor(private readonly o: SessionToolsOptions) {}

  /** What the model is offered, in order: built-in, extension, host, MCP tools (hidden ones left out). */
  active(): Tool[] {
    const selection = this.selection;
    const list = this.all().filter((t) => (selection ? selection.has(t.name) : !t.hidden));
    const isDeferred = this.o.isDeferred;
    return isDeferred ? list.map((t) => (isDeferred(t.name) ? this.deferredView(t) : t)) : list;
  }

  /** Every tool the session could offer, hidden ones included (`pi.getAllTools`). */
  all(): Tool[] {
    const allowExt = this.o.allowExtensionTool;
    const registered = this.o.runner()?.registeredTools() ?? [];
    const ext = allowExt ? registered.filter((t) => allowExt(t.name)) : registered;
    const mcp = this.o.mcpTools?.() ?? [];
    return [...this.o.builtin, ...ext, ...this.host, ...mcp].filter((t) => !t.unavailable?.());
  }

  /** `pi.setActiveTools`: offers exactly these tools (names no tool has are ignored). */
  setActive(names: readonly string[]): void {
    this.selection = new Set(names.filter((n) => typeof n === "string"));
  }

  private deferredView(t: Tool): Tool {
    let view = this.deferredViews.get(t);
    if (!view) {
      // the prototype chain keeps the tool's own methods and state; only the flag differs
      view = Object.create(t, { deferred: { value: true, enumerable: true } }) as Tool;
      this.deferredViews.set(t, view);
    }
    return view;
  }

  /** Built-in tools left out for a missing dependency, and why (`get_state.unavailableTools`). */
  unavailable(): Array<{ name: string; reason: string }> {
    return this.o.builtin.flatMap((t) => {
      const reason = t.hidden ? undefined : t.unavailable?.();
      return reason ? [{ name: t.name, reason }] : [];
    });
  }

  /** Waits for the built-in tools' dependency probes (before a run, so the list is settled). */
  async ready(): Promise<void> {
    await Promise.all(this.o.builtin.map((t) => t.ready?.().catch(() => undefined)));
  }

  /**
   * New built-in tools (the settings changed under an idle session): they replace the old ones,
   * which release their resources; a tool in both lists is kept as it is.
   */
  async replaceBuiltin(tools: Tool[], isDeferred: ((name: string) => boolean) | undefined): Promise<void> {
    const old = this.o.builtin;
    this.o.builtin = tools;
    this.o.isDeferred = isDeferred;
    await Promise.all(old.filter((t) => !tools.includes(t)).map(async (t) => t.dispose?.()));
  }

  /** Releases the built-in tools' resources (the python kernel) when the session closes. */
  async dispose(): Promise<void> {
    await Promise.all(this.o.builtin.map(async (t) => t.dispose?.()));
  }

  has(name: string): boolean {
    return this.active().some((t) => t.name === name);
  }

  /**
   * `set_host_tools`: replaces the host's tools. A name that a built-in or extension tool
   * already uses is refused.
   */
  setHostTools(tools: Tool[]): void {
    const ext = this.o.runner()?.registeredTools() ?? [];
    const taken = new Set([...this.o.builtin, ...ext].map((t) => t.name));
    for (const t of tools) {
      if (taken.has(t.name)) throw new PithError("invalid_request", `RPC host tool "${t.name}" conflicts with an existing tool`);
    }
    this.host = tools;
  }

  /** The todo list as `get_state` shows it. */
  get todos(): TodoPhase[] {
    return this.o.todos.get();
  }

  /** `set_todos`: normalises and replaces the todo list; returns the stored copy. */
  setTodos(phases: unknown): TodoPhase[] {
    this.o.todos.set(normalizeTodoPhases(phases));
    return this.o.todos.get();
  }

  /** The system prompt for the active tools, rebuilt only when the list changes. */
  systemPrompt(): string {
    const tools = this.active();
    // The skills packages declare are listed after the prompt, as pi lists them.
    const extra = this.o.runner()?.skillsPrompt() ?? "";
    const c = this.cachedPrompt;
    if (c && c.extra === extra && c.tools.length === tools.length && c.tools.every((t, i) => t === tools[i])) return c.text;
    const text = this.o.buildSystemPrompt(tools) + extra;
    this.cachedPrompt = { tools, extra, text };
    return text;
  }
}
