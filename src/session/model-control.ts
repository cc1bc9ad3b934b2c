// Model and thinking-level selection (spec/protocol.md §3.12–3.16). Changes are recorded in
// the session file; they never touch the user's settings (design.md §4.11).
import { nextModel } from "../providers/models/model-cycle.js";
import { cycleThinkingLevel, resolveThinkingLevel } from "../providers/models/thinking.js";
import { PithError } from "../shared/errors.js";
import type { Model, ThinkingLevel } from "../shared/types.js";
import type { AgentSession } from "./agent-session.js";

export class ModelNotFoundError extends PithError {
  constructor(provider: string, modelId: string) {
    super("not_found", `Model not found: ${provider}/${modelId}`);
  }
}

export function availableModels(session: AgentSession): Model[] {
  return session.deps.registry.available();
}

/** Available models once live discovery has finished (or after at most `waitMs`). */
export async function discoveredModels(session: AgentSession, waitMs = 3000): Promise<Model[]> {
  if (session.discovery) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([session.discovery, timeout]);
    clearTimeout(timer);
  }
  return availableModels(session);
}

/** `set_model`: an exact match among available models (a scripted model resolves by path). */
export async function setModel(session: AgentSession, provider: string, modelId: string): Promise<Model> {
  const registry = session.deps.registry;
  const model = registry.find(provider, modelId) ?? registry.resolve(provider, modelId);
  if (!model || !registry.hasCredentials(model.provider)) throw new ModelNotFoundError(provider, modelId);
  applyModel(session, model);
  return model;
}

/** `cycle_model`: the next scoped (or available) model, or null with fewer than two. */
export function cycleModel(session: AgentSession): { model: Model; thinkingLevel?: ThinkingLevel; isScoped: boolean } | null {
  const scoped = (session.deps.scopedModels ?? []).filter((m) => session.deps.registry.hasCredentials(m.provider));
  const isScoped = scoped.length > 0;
  const candidates = isScoped ? scoped : availableModels(session);
  const next = nextModel(candidates, session.model);
  if (!next) return null;
  applyModel(session, next);
  const result: { model: Model; thinkingLevel?: ThinkingLevel; isScoped: boolean } = { model: next, isScoped };
  if (session.thinkingLevel !== undefined) result.thinkingLevel = session.thinkingLevel;
  return result;
}

function applyModel(session: AgentSession, model: Model): void {
  const rt = session.rt;
  rt.model = model;
  rt.store.appendModelChange(model.provider, model.id);
  if (rt.thinkingLevel !== undefined) setThinking(session, resolveThinkingLevel(model, rt.thinkingLevel));
}

/** `set_thinking_level`: resolved against the current model; recorded when it changes. */
export function setThinkingLevel(session: AgentSession, input: unknown): void {
  setThinking(session, resolveThinkingLevel(session.model, input));
}

/** `cycle_thinking_level`: null when the model cannot reason. */
export function cycleThinking(session: AgentSession): { level: ThinkingLevel } | null {
  const level = cycleThinkingLevel(session.model, session.thinkingLevel);
  if (level === null) return null;
  setThinking(session, level);
  return { level };
}

function setThinking(session: AgentSession, level: ThinkingLevel | undefined): void {
  const rt = session.rt;
  if (rt.thinkingLevel === level) return;
  rt.thinkingLevel = level;
  rt.store.appendThinkingLevelChange(level ?? null);
}
