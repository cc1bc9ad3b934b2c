// One model call: build the request, consume the StreamFn, and turn its events into
// message_start / message_update / message_end. Never throws: every failure becomes an
// assistant message with stopReason "error" or "aborted".
//
// Snapshot policy: `message_update.message` and `assistantMessageEvent.partial` are the
// provider's live partial object (the same reference, no copy per delta). A listener must
// serialise or copy it synchronously inside `emit` (the RPC writer does); keeping the object
// for later shows later content.
//
// Hook aborts: when `config.onAssistantUpdate` returns true, only this stream is aborted (the
// triggering update is not emitted). The turn ends like a user abort (stopReason "aborted",
// errorMessage "Request was aborted"); the caller tells the two apart because the run's
// signal (`input.signal`) is not aborted.
import type { LlmContext } from "../providers/types.js";
import { errorMessage } from "../shared/errors.js";
import type { AssistantMessage, AssistantMessageEvent, Model } from "../shared/types.js";
import { ABORTED, AbortWaiter, closeIterator } from "./abort-waiter.js";
import { linkedAbort, type LinkedAbort } from "./linked-abort.js";
import { appendMessage, endMessage, type Later, type RunState } from "./run-state.js";
import { advertisedTools } from "./tool-shelf.js";
import { abortedFromPartial, finalFromPartial, placeholderAssistant } from "./synthetic.js";

/** The nine subtypes that become `message_update`; anything else a provider sends is ignored. */
const UPDATE_TYPES = new Set<string>([
  "text_start",
  "text_delta",
  "text_end",
  "thinking_start",
  "thinking_delta",
  "thinking_end",
  "toolcall_start",
  "toolcall_delta",
  "toolcall_end",
]);
const UNKNOWN_MODEL = { api: "unknown", provider: "unknown", id: "unknown" };
export const NO_TERMINAL_EVENT = "Provider stream ended without a final message";

/** Tracks what was announced for the assistant message of this call. */
class AssistantTracker {
  started = false;
  partial: AssistantMessage | undefined;
  model: Pick<Model, "api" | "provider" | "id"> = UNKNOWN_MODEL;

  constructor(private readonly state: RunState) {}

  start(partial: AssistantMessage): void {
    if (this.started) return;
    this.started = true;
    this.partial ??= partial;
    // message_start keeps its own (empty) shape even though the provider mutates `partial`.
    this.state.input.emit({ type: "message_start", message: { ...partial, content: [...partial.content] } });
  }

  /** The last partial, or an empty placeholder when the provider announced nothing. */
  current(): AssistantMessage {
    return this.partial ?? placeholderAssistant(this.model);
  }

  aborted(): AssistantMessage {
    return abortedFromPartial(this.current());
  }

  failed(err: unknown, signal: AbortSignal): AssistantMessage {
    if (signal.aborted) return this.aborted();
    return finalFromPartial(this.current(), "error", errorMessage(err));
  }

  end(final: AssistantMessage): Later<AssistantMessage> {
    if (!this.started) {
      const identity = { api: final.api, provider: final.provider, id: final.model };
      this.start(placeholderAssistant(identity, final.timestamp));
    }
    appendMessage(this.state, final);
    const pending = endMessage(this.state, final);
    return pending ? pending.then(() => final) : final;
  }
}

/** Streams one assistant message, appends it to the context and returns it. */
export async function streamAssistant(state: RunState): Promise<AssistantMessage> {
  const link = linkedAbort(state.input.signal);
  const tracker = new AssistantTracker(state);
  try {
    const final = await consume(state, link, tracker);
    return tracker.end(final);
  } finally {
    link.dispose();
  }
}

async function consume(state: RunState, link: LinkedAbort, tracker: AssistantTracker): Promise<AssistantMessage> {
  const { config } = state;
  const signal = link.signal;
  let iterator: AsyncIterator<AssistantMessageEvent>;
  try {
    const model = config.getModel();
    tracker.model = model;
    if (signal.aborted) return tracker.aborted();
    const options = { ...config.getStreamOptions(), signal };
    const forced = typeof options.toolChoice === "object" ? options.toolChoice.name : undefined;
    const context = await buildContext(state, signal, forced);
    if (signal.aborted) return tracker.aborted();
    iterator = config.stream(model, context, options)[Symbol.asyncIterator]();
  } catch (err) {
    return tracker.failed(err, signal);
  }
  return pump(state, link, tracker, iterator);
}

async function buildContext(state: RunState, signal: AbortSignal, forcedTool: string | undefined): Promise<LlmContext> {
  const { config, input } = state;
  const tools = advertisedTools(config.getTools(), forcedTool);
  const source = config.transformContext ? await config.transformContext(input.messages.slice(), signal) : input.messages;
  const context: LlmContext = { systemPrompt: config.getSystemPrompt(), messages: config.convertToLlm(source), tools };
  config.onRequest?.(context);
  return context;
}

async function pump(
  state: RunState,
  link: LinkedAbort,
  tracker: AssistantTracker,
  iterator: AsyncIterator<AssistantMessageEvent>,
): Promise<AssistantMessage> {
  const signal = link.signal;
  const waiter = new AbortWaiter(signal);
  try {
    for (;;) {
      const step = await waiter.next(iterator);
      if (step === ABORTED || signal.aborted) return tracker.aborted();
      if (step.done) return tracker.failed(new Error(NO_TERMINAL_EVENT), signal);
      const final = handleEvent(state, link, tracker, step.value);
      if (final) return final;
    }
  } catch (err) {
    return tracker.failed(err, signal);
  } finally {
    waiter.dispose();
    closeIterator(iterator);
  }
}

/** Returns the final message on a terminal event, undefined otherwise. */
function handleEvent(
  state: RunState,
  link: LinkedAbort,
  tracker: AssistantTracker,
  event: AssistantMessageEvent,
): AssistantMessage | undefined {
  switch (event.type) {
    case "start":
      tracker.start(event.partial);
      return undefined;
    case "done":
      return event.message ?? tracker.failed(new Error(NO_TERMINAL_EVENT), link.signal);
    case "error":
      return event.error ?? tracker.failed(new Error(NO_TERMINAL_EVENT), link.signal);
    default:
      if (UPDATE_TYPES.has(event.type)) onContentEvent(state, link, tracker, event);
      return undefined;
  }
}

function onContentEvent(
  state: RunState,
  link: LinkedAbort,
  tracker: AssistantTracker,
  event: Exclude<AssistantMessageEvent, { type: "start" | "done" | "error" }>,
): void {
  if (!tracker.started) tracker.start({ ...event.partial, content: [] });
  tracker.partial = event.partial;
  const update = { type: "message_update" as const, message: event.partial, assistantMessageEvent: event };
  if (state.config.onAssistantUpdate?.(update) === true) link.controller.abort();
  if (link.signal.aborted) return;
  state.input.emit(update);
}
