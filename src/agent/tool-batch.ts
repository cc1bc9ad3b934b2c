// Executes the tool calls of one assistant message.
// `shared` calls run together; an `exclusive` call waits for every earlier call and blocks
// every later one. Results are emitted, appended and returned in completion order.
import { errorMessage } from "../shared/errors.js";
import type { AgentMessage, ToolCall, ToolResultMessage } from "../shared/types.js";
import { runTool } from "../tools/run-tool.js";
import type { Tool, ToolContext } from "../tools/types.js";
import { linkedAbort, neverAbortedSignal, type LinkedAbort } from "./linked-abort.js";
import type { RunState } from "./run-state.js";
import { abortedCallText, errorOutcome, SKIPPED_TEXT } from "./synthetic.js";
import { callArgs, emitSyntheticCall, emitToolResult, emitToolStart, type CallArgs } from "./tool-events.js";
import { resolveShelfCall, type ShelfResolution } from "./tool-shelf.js";
import type { ToolCallOutcome } from "./types.js";

export interface BatchOutcome {
  /** The turn's tool results in completion order (skipped calls last, in call order). */
  results: ToolResultMessage[];
  /** Steering taken by an "immediate"-mode poll during the batch: the next turn's pending messages. */
  steering?: AgentMessage[];
}

export function notFoundText(name: string): string {
  return `Tool ${name} not found`;
}

/** Runs every call of `calls`; each gets exactly one toolResult message. */
export async function executeToolBatch(state: RunState, calls: ToolCall[]): Promise<BatchOutcome> {
  const batch = new ToolBatch(state, calls);
  return batch.run();
}

class ToolBatch {
  private readonly link: LinkedAbort;
  private readonly tools = new Map<string, Tool>();
  private readonly immediate: boolean;
  private readonly results: ToolResultMessage[] = [];
  private readonly unstarted: ToolCall[] = [];
  private steering: AgentMessage[] | undefined;

  constructor(
    private readonly state: RunState,
    private readonly calls: ToolCall[],
  ) {
    this.link = linkedAbort(state.input.signal);
    for (const tool of state.config.getTools()) if (!this.tools.has(tool.name)) this.tools.set(tool.name, tool);
    this.immediate = state.config.getInterruptMode() === "immediate";
  }

  async run(): Promise<BatchOutcome> {
    try {
      // Settle every call before reporting a failure (a throwing listener), so no result lands late.
      const settled = await Promise.allSettled(this.schedule());
      const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
      if (failure) throw failure.reason;
      const order = new Map(this.calls.map((c, i) => [c, i]));
      this.unstarted.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
      for (const call of this.unstarted) {
        const result = emitSyntheticCall(this.state, call, errorOutcome(SKIPPED_TEXT));
        this.results.push(result instanceof Promise ? await result : result);
      }
      return this.steering ? { results: this.results, steering: this.steering } : { results: this.results };
    } finally {
      this.link.dispose();
    }
  }

  /** One promise per call, chained so that exclusive calls are serialised. */
  private schedule(): Promise<void>[] {
    const all: Promise<void>[] = [];
    let gate: Promise<unknown> = Promise.resolve();
    for (const call of this.calls) {
      const shelf = resolveShelfCall(call, this.tools);
      const tool = shelf?.kind === "run" ? shelf.tool : this.tools.get(call.name);
      if (tool?.concurrency === "exclusive") {
        const p = Promise.all(all).then(() => this.runCall(call, tool, shelf));
        gate = p;
        all.push(p);
      } else {
        all.push(gate.then(() => this.runCall(call, tool, shelf)));
      }
    }
    return all;
  }

  private async runCall(call: ToolCall, tool: Tool | undefined, shelf: ShelfResolution | undefined): Promise<void> {
    if (this.steering) {
      this.unstarted.push(call);
      return;
    }
    if (this.state.input.signal.aborted) {
      const result = emitSyntheticCall(this.state, call, errorOutcome(abortedCallText()));
      this.results.push(result instanceof Promise ? await result : result);
      return;
    }
    if (shelf?.kind === "answer") {
      const answer = { isError: shelf.isError, result: { content: [{ type: "text" as const, text: shelf.text }], details: {} } };
      emitToolStart(this.state, call, callArgs(call));
      const result = emitToolResult(this.state, call, answer, false);
      this.results.push(result instanceof Promise ? await result : result);
      this.pollSteering();
      return;
    }
    // a deferred tool reached through call_tool runs, and is reported, as itself
    const run = shelf?.kind === "run" ? shelf.call : call;
    const view = callArgs(run);
    emitToolStart(this.state, run, view);
    const state = { finished: false };
    const outcome = await this.execute(run, tool, view, state);
    state.finished = true;
    const skipped = this.steering !== undefined;
    const result = emitToolResult(this.state, run, skipped ? errorOutcome(SKIPPED_TEXT) : outcome, skipped);
    // Awaited only when a message_end hook is waited for: the steering poll below keeps its timing.
    this.results.push(result instanceof Promise ? await result : result);
    this.pollSteering();
  }

  private async execute(
    call: ToolCall,
    tool: Tool | undefined,
    view: CallArgs,
    state: { finished: boolean },
  ): Promise<ToolCallOutcome> {
    if (!tool) return errorOutcome(notFoundText(call.name));
    const input = this.state.input;
    const ctx: ToolContext = {
      cwd: this.state.cwd,
      toolCallId: call.id,
      signal: tool.nonAbortable ? neverAbortedSignal() : this.link.signal,
      onUpdate: (partialResult) => {
        if (state.finished) return;
        input.emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args: view.args, partialResult });
      },
    };
    // A wrapper (extension hooks, an approval dialog, a checkpoint) may hand over after the run
    // was aborted: the tool then never starts, and a call that never ran because of the abort
    // says so, whatever the wrapper made of it (a dialog cancelled by the abort denies).
    const wrap = this.state.config.wrapToolExecution;
    const ran = { started: false };
    const aborted = () => this.state.input.signal.aborted;
    const run = (): Promise<ToolCallOutcome> => {
      if (wrap && aborted()) return Promise.resolve(errorOutcome(abortedCallText()));
      ran.started = true;
      return runTool(tool, view.args, ctx);
    };
    let outcome: ToolCallOutcome;
    try {
      outcome = await (wrap ? wrap(call, tool, run) : run());
    } catch (err) {
      outcome = errorOutcome(errorMessage(err));
    }
    return !ran.started && aborted() ? errorOutcome(abortedCallText()) : outcome;
  }

  /** "immediate" mode: after each completed call, one steering poll; messages interrupt the batch. */
  private pollSteering(): void {
    if (!this.immediate || this.steering || this.state.input.signal.aborted) return;
    const messages = this.state.config.pollSteering();
    if (messages.length === 0) return;
    this.steering = messages;
    this.link.controller.abort();
  }
}
