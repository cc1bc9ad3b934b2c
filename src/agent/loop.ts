// The agent loop: turns of model call + tool batch until the model stops
// calling tools and no steering or follow-up is queued, or until an error or abort.
//
// Abort (pith's choice): when the run's signal fires
// during the tool phase, the turn is closed (turn_end) and the run ends with agent_end right
// away. No steering poll, no extra immediately-aborted model call, no follow-up poll: queued
// messages stay in their queues for the next run. Steering already taken by an "immediate"
// poll before the abort is not lost: it enters the context (message_start/end) before agent_end.
import { errorMessage } from "../shared/errors.js";
import type { AgentMessage, Model, ToolResultMessage } from "../shared/types.js";
import { addMessages, type RunState } from "./run-state.js";
import { streamAssistant } from "./stream-turn.js";
import { errorOutcome, exceptionAssistant, failedCallText, insertMissingResults, syntheticResult, toolCallsOf } from "./synthetic.js";
import { executeToolBatch } from "./tool-batch.js";
import { emitSyntheticCall } from "./tool-events.js";
import type { AgentLoopConfig, RunAgentLoop } from "./types.js";

interface TurnOutcome {
  stop: boolean;
  hasToolCalls: boolean;
  steering?: AgentMessage[];
}

export const runAgentLoop: RunAgentLoop = async (input, config) => {
  const flags = { ended: false };
  const state: RunState = { input, config, added: [], cwd: "" };
  try {
    state.cwd = config.getCwd();
    await runTurns(state, flags);
    return state.added;
  } catch (err) {
    return flags.ended ? state.added : endAfterException(state, err);
  }
};

async function runTurns(state: RunState, flags: { ended: boolean }): Promise<void> {
  const { input, config } = state;
  input.emit({ type: "agent_start" });
  input.emit({ type: "turn_start" });
  const prompts = addMessages(state, input.prompts);
  if (prompts) await prompts;
  let pending = input.signal.aborted ? [] : config.pollSteering();
  let first = true;
  for (;;) {
    let hasToolCalls = true;
    while (hasToolCalls || pending.length > 0) {
      if (!first) input.emit({ type: "turn_start" });
      first = false;
      const adding = addMessages(state, pending);
      if (adding) await adding;
      pending = [];
      const turn = await runTurn(state);
      if (turn.stop) return endRun(state, flags);
      hasToolCalls = turn.hasToolCalls;
      pending = turn.steering ?? config.pollSteering();
    }
    const followUps = config.pollFollowUps();
    if (followUps.length === 0) break;
    pending = followUps;
  }
  endRun(state, flags);
}

function endRun(state: RunState, flags: { ended: boolean }): void {
  flags.ended = true;
  state.input.emit({ type: "agent_end", messages: state.added });
}

/** One model call and its tool batch, closed by turn_end. */
async function runTurn(state: RunState): Promise<TurnOutcome> {
  const { input } = state;
  const assistant = await streamAssistant(state);
  if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
    const text = failedCallText(assistant.stopReason, assistant.errorMessage);
    const results: ToolResultMessage[] = [];
    for (const call of toolCallsOf(assistant)) {
      const result = emitSyntheticCall(state, call, errorOutcome(text));
      results.push(result instanceof Promise ? await result : result);
    }
    input.emit({ type: "turn_end", message: assistant, toolResults: results });
    return { stop: true, hasToolCalls: results.length > 0 };
  }
  const calls = toolCallsOf(assistant);
  const batch = calls.length > 0 ? await executeToolBatch(state, calls) : { results: [], steering: undefined };
  input.emit({ type: "turn_end", message: assistant, toolResults: batch.results });
  if (input.signal.aborted || (calls.length > 0 && state.config.shouldEndAfterTools?.() === true)) {
    const steering = addMessages(state, batch.steering ?? []);
    if (steering) await steering;
    return { stop: true, hasToolCalls: calls.length > 0 };
  }
  return { stop: false, hasToolCalls: calls.length > 0, steering: batch.steering };
}

/**
 * The exception path: something escaped (a listener or a poll threw). Tool calls left
 * without a result get one in the context, then a synthetic error assistant message closes
 * the run. Each such result is still announced (message_start/end: what records it in the
 * session file) one by one, so a listener that fails again loses only its own event.
 */
function endAfterException(state: RunState, err: unknown): AgentMessage[] {
  const { input, config } = state;
  const message = errorMessage(err);
  const repaired = repairPairing(input.messages, state.added, message);
  const synthetic = exceptionAssistant(modelIdentity(config), input.signal.aborted, message);
  const failures: string[] = [];
  for (const result of repaired) {
    try {
      input.emit({ type: "message_start", message: result });
      input.emit({ type: "message_end", message: result });
    } catch (emitErr) {
      failures.push(`tool result listener failed: ${errorMessage(emitErr)}`);
    }
  }
  input.messages.push(synthetic);
  try {
    input.emit({ type: "agent_end", messages: [synthetic] });
  } catch (emitErr) {
    failures.push(`agent_end listener failed: ${errorMessage(emitErr)}`);
  }
  // The listener that failed is the only place to report to; the return value still carries it.
  if (failures.length > 0) synthetic.errorMessage = [message, ...new Set(failures)].join("; ");
  return [synthetic];
}

function modelIdentity(config: AgentLoopConfig): Pick<Model, "api" | "provider" | "id"> {
  try {
    return config.getModel();
  } catch (err) {
    return { api: "unknown", provider: "unknown", id: `unknown (${errorMessage(err)})` };
  }
}

/** Inserts an error result after the results of every assistant message of the run that lacks one; returns them. */
function repairPairing(messages: AgentMessage[], added: AgentMessage[], reason: string): ToolResultMessage[] {
  const text = failedCallText("error", reason);
  return insertMissingResults(messages, added, (call) => syntheticResult(call, text));
}
