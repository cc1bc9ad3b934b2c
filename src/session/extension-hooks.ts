// Where extensions reach into a prompt run: slash commands, `before_agent_start`, the
// `context` rewrite, tool interception, and in-order delivery of events.
import type { ExtensionRunner } from "../extensions/index.js";
import type { AgentMessage, AgentSessionEvent, ToolCall, UserContent, UserMessage } from "../shared/types.js";
import type { Tool, ToolOutcome } from "../tools/types.js";
import type { InputSource, StreamingBehavior } from "./types.js";

const COMMAND_RE = /^\/([^\s/]+)(?:\s|$)/;

export class ExtensionHooks {
  /** A `before_agent_start` handler may replace the system prompt for one prompt. */
  systemPromptOverride: string | undefined;
  private extensionChain: Promise<unknown> = Promise.resolve();
  /** Messages whose message_end the extensions heard before the loop emitted it. */
  private readonly delivered = new WeakSet<object>();

  /**
   * `runner()` is the session's extension runner once extensions are attached; `systemPrompt()`
   * is the prompt a `before_agent_start` handler sees.
   */
  constructor(
    private readonly runner: () => ExtensionRunner | undefined,
    private readonly systemPrompt: () => string,
  ) {}

  hasExtensions(): boolean {
    return this.runner() !== undefined;
  }
  hasHandlers(type: string): boolean {
    return this.runner()?.hasHandlers(type) ?? false;
  }

  // ── extension commands ──────────────────────────────────────────────────────

  commandName(text: string): string | undefined {
    const ext = this.runner();
    if (!ext) return undefined;
    const m = COMMAND_RE.exec(text);
    if (!m) return undefined;
    return ext.extensionCommands().some((c) => c.name === m[1]) ? m[1] : undefined;
  }
  isExtensionCommand(text: string): boolean {
    return this.commandName(text) !== undefined;
  }
  async runExtensionCommand(text: string): Promise<void> {
    await this.runner()?.runCommand(text);
  }
  /** A skill or prompt-template command expanded to its text; anything else unchanged. */
  expandPrompt(text: string): string {
    return this.runner()?.expandPrompt(text) ?? text;
  }

  /**
   * pi's `input` event, before skills and templates are expanded: handlers may transform the
   * text and images (each sees the previous one's) or handle it (undefined: nothing more happens).
   */
  async input(text: string, images: UserContent[], source: InputSource, streamingBehavior: StreamingBehavior | undefined): Promise<{ text: string; images: UserContent[] } | undefined> {
    const ext = this.runner();
    if (!ext?.hasHandlers("input")) return { text, images };
    const attached = images.filter((b) => b.type === "image");
    const outcome = await ext.emit({
      type: "input",
      text,
      ...(attached.length > 0 ? { images: attached } : {}),
      source,
      ...(streamingBehavior ? { streamingBehavior } : {}),
    });
    if (!outcome) return { text, images };
    if (outcome.handled) return undefined;
    return { text: outcome.text, images: outcome.images ?? images };
  }

  /** Custom messages (and maybe a system prompt) from `before_agent_start` handlers. */
  async beforeAgentStart(user: UserMessage, text: string): Promise<AgentMessage[]> {
    const ext = this.runner();
    if (!ext?.hasHandlers("before_agent_start")) return [];
    const images = Array.isArray(user.content) ? user.content.filter((b) => b.type === "image") : [];
    const outcome = await ext.emit({ type: "before_agent_start", prompt: text, images, systemPrompt: this.systemPrompt(), systemPromptOptions: { cwd: ext.context.cwd } });
    if (outcome?.systemPrompt !== undefined) this.systemPromptOverride = outcome.systemPrompt;
    return (outcome?.messages ?? []).map((m) => ({ role: "custom", ...m, timestamp: Date.now() }) as AgentMessage);
  }

  // ── extension hooks inside the loop ─────────────────────────────────────────

  async transformContext(messages: AgentMessage[], _signal: AbortSignal): Promise<AgentMessage[]> {
    const result = await this.runner()?.emit({ type: "context", messages: [...messages] });
    return result?.messages ?? messages;
  }

  wrapToolExecution(call: ToolCall, tool: Tool, run: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const ext = this.runner();
    return ext ? ext.wrapToolExecution(call, tool, run) : run();
  }

  /**
   * pi's `message_end` replacement, before the message is recorded and the host sees it: the
   * extensions hear every earlier event first, then `message_end`; a returned message (same role)
   * replaces the contents of `message` in place, so the context, the file and the host all see it.
   */
  async messageEnd(message: AgentMessage): Promise<void> {
    const ext = this.runner();
    if (!ext?.hasHandlers("message_end")) return;
    this.delivered.add(message);
    const heard = this.extensionChain.then(() => ext.emit({ type: "message_end", message }));
    this.extensionChain = heard;
    const replacement = (await heard)?.message;
    if (!replacement || replacement === message) return;
    const target = message as unknown as Record<string, unknown>;
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, replacement);
  }

  /** Delivers an agent/session event to extensions in order, without blocking the loop. */
  forward(event: AgentSessionEvent): void {
    const ext = this.runner();
    if (!ext || !ext.hasHandlers(event.type)) return;
    // A message_end the extensions already heard (and could replace) is not sent twice.
    if (event.type === "message_end" && this.delivered.delete(event.message)) return;
    this.extensionChain = this.extensionChain.then(() => ext.emit(event));
  }

}
