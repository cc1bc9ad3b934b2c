// The offline `scripted` provider: plays replies from a JSON script file as real assistant
// message events (start, thinking/text deltas, tool calls, done/error). Never throws once
// iterated; honours the abort signal and the script's delays.
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ABORT_MESSAGE, isAbortError, sleep } from "../../shared/abort.js";
import { errorMessage } from "../../shared/errors.js";
import type { AssistantMessage, AssistantMessageEvent, Model, ToolCall } from "../../shared/types.js";
import { usageWithCost } from "../cost.js";
import type { LlmContext, StreamFn, StreamOptions } from "../types.js";
import { ScriptCursors, type ScriptedReply } from "./script.js";

export { ScriptCursors } from "./script.js";
export { SCRIPTED_API, SCRIPTED_PROVIDER, scriptedModel } from "./model.js";

let toolCallCounter = 0;

/** The absolute script path a scripted model names. */
export function scriptPath(model: Pick<Model, "id" | "baseUrl">): string {
  if (model.baseUrl.startsWith("file:")) return fileURLToPath(model.baseUrl);
  return isAbsolute(model.id) ? model.id : resolve(model.id);
}

/** Splits text into word-sized deltas (kept verbatim when the script gives an array). */
function chunks(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.filter((s) => s !== "");
  return value.match(/\s*\S+\s*/g) ?? (value ? [value] : []);
}

const estimateTokens = (chars: number) => Math.ceil(chars / 4);

class Player {
  readonly msg: AssistantMessage;
  private outputChars = 0;
  constructor(
    private readonly model: Model,
    private readonly context: LlmContext,
    private readonly options: StreamOptions,
  ) {
    this.msg = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: usageWithCost(model, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }),
      stopReason: "stop",
      timestamp: Date.now(),
    };
  }

  private snapshot(): AssistantMessage {
    return { ...this.msg, content: this.msg.content.map((c) => ({ ...c })) };
  }

  private async pause(ms: number | undefined): Promise<void> {
    if (this.options.signal?.aborted) await sleep(0, this.options.signal);
    if (ms) await sleep(ms, this.options.signal);
  }

  async *blocks(reply: ScriptedReply): AsyncGenerator<AssistantMessageEvent> {
    for (const kind of ["thinking", "text"] as const) {
      const parts = chunks(reply[kind]);
      if (parts.length === 0) continue;
      const idx = this.msg.content.length;
      const block = kind === "text" ? { type: "text" as const, text: "" } : { type: "thinking" as const, thinking: "" };
      this.msg.content.push(block);
      yield { type: `${kind}_start`, contentIndex: idx, partial: this.snapshot() } as AssistantMessageEvent;
      for (const delta of parts) {
        await this.pause(reply.chunkDelayMs);
        if (block.type === "text") block.text += delta;
        else block.thinking += delta;
        this.outputChars += delta.length;
        yield { type: `${kind}_delta`, contentIndex: idx, delta, partial: this.snapshot() } as AssistantMessageEvent;
      }
      const content = block.type === "text" ? block.text : block.thinking;
      yield { type: `${kind}_end`, contentIndex: idx, content, partial: this.snapshot() } as AssistantMessageEvent;
    }
    for (const call of reply.toolCalls ?? []) yield* this.toolCall(call, reply.chunkDelayMs);
  }

  private async *toolCall(call: NonNullable<ScriptedReply["toolCalls"]>[number], delay: number | undefined): AsyncGenerator<AssistantMessageEvent> {
    await this.pause(delay);
    const idx = this.msg.content.length;
    const tc: ToolCall = { type: "toolCall", id: call.id ?? `call_scripted_${++toolCallCounter}`, name: call.name, arguments: {} };
    this.msg.content.push(tc);
    yield { type: "toolcall_start", contentIndex: idx, partial: this.snapshot() };
    const json = JSON.stringify(call.arguments);
    const half = Math.ceil(json.length / 2);
    for (const delta of [json.slice(0, half), json.slice(half)].filter((d) => d !== "")) {
      await this.pause(delay);
      this.outputChars += delta.length;
      yield { type: "toolcall_delta", contentIndex: idx, delta, partial: this.snapshot() };
    }
    tc.arguments = structuredClone(call.arguments);
    yield { type: "toolcall_end", contentIndex: idx, toolCall: { ...tc }, partial: this.snapshot() };
  }

  finishUsage(reply: ScriptedReply | undefined): void {
    const promptChars = this.context.systemPrompt.length + JSON.stringify(this.context.messages).length;
    const u = reply?.usage ?? {};
    this.msg.usage = usageWithCost(this.model, {
      input: u.input ?? estimateTokens(promptChars),
      output: u.output ?? estimateTokens(this.outputChars),
      cacheRead: u.cacheRead ?? 0,
      cacheWrite: u.cacheWrite ?? 0,
    });
  }

  fail(reason: "aborted" | "error", message: string, reply?: ScriptedReply): AssistantMessageEvent {
    this.finishUsage(reply);
    this.msg.stopReason = reason;
    this.msg.errorMessage = message;
    return { type: "error", reason, error: this.snapshot() };
  }
}

async function* play(cursors: ScriptCursors, model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const player = new Player(model, context, options);
  const started = Date.now();
  yield { type: "start", partial: { ...player.msg, content: [] } };
  let reply: ScriptedReply | undefined;
  try {
    reply = await cursors.next(scriptPath(model));
    if (options.signal?.aborted) await sleep(0, options.signal);
    if (reply.delayMs) await sleep(reply.delayMs, options.signal);
    yield* player.blocks(reply);
  } catch (err) {
    const aborted = isAbortError(err) || options.signal?.aborted === true;
    yield player.fail(aborted ? "aborted" : "error", aborted ? ABORT_MESSAGE : errorMessage(err), reply);
    return;
  }
  player.msg.duration = Date.now() - started;
  if (reply.error !== undefined) {
    yield player.fail("error", reply.error, reply);
    return;
  }
  player.finishUsage(reply);
  const hasTools = (reply.toolCalls?.length ?? 0) > 0;
  const reason = reply.stopReason ?? (hasTools ? "toolUse" : "stop");
  player.msg.stopReason = reason;
  yield { type: "done", reason, message: { ...player.msg, content: player.msg.content.map((c) => ({ ...c })) } };
}

/**
 * A scripted StreamFn with its own script cursors (one per session: two sessions playing the same
 * script each start at its first reply). `model.baseUrl` (file URL) or `model.id` names the script.
 */
export function createScriptedStream(cursors: ScriptCursors = new ScriptCursors()): StreamFn {
  return (model, context, options) => play(cursors, model, context, options);
}
