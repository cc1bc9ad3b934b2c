// Session config options for editors: the model and the thinking level, as ACP selects; read and
// set through the session's operations.
import type { AgentSession } from "../session/index.js";
import { PithError } from "../shared/errors.js";
import { parseModelSelector } from "../shared/model-selector.js";
import type { ThinkingLevel } from "../shared/types.js";

export async function configOptions(session: AgentSession) {
  const state = await session.handle({ type: "get_state" });
  const current = state.model;
  const { models } = await session.handle({ type: "get_available_models" });
  const value = current ? `${current.provider}/${current.id}` : "";
  const modelOptions = models.map((m) => ({ value: `${m.provider}/${m.id}`, name: m.name || m.id, description: m.provider }));
  if (current && !modelOptions.some((o) => o.value === value)) modelOptions.unshift({ value, name: current.name || current.id, description: current.provider });
  const options = [];
  if (modelOptions.length > 0) {
    options.push({ id: "model", name: "Model", category: "model", type: "select" as const, currentValue: value, options: modelOptions });
  }
  if (current?.reasoning) {
    const level = state.thinkingLevel ?? "off";
    const { levels } = await session.handle({ type: "get_available_thinking_levels" });
    options.push({
      id: "thought_level",
      name: "Thinking",
      category: "thought_level",
      type: "select" as const,
      currentValue: level,
      options: levels.map((l) => ({ value: l, name: l })),
    });
  }
  return options;
}

/** `session/set_config_option`: the model (`provider/id`) or the thinking level. */
export async function setConfigOption(session: AgentSession, configId: string, value: unknown): Promise<void> {
  if (typeof value !== "string") throw new PithError("invalid_request", `Config option "${configId}" takes a string value`);
  if (configId === "model") {
    const { provider, id } = parseModelSelector(value);
    if (provider === undefined) throw new PithError("invalid_request", `Model must be "provider/id", got "${value}"`);
    await session.handle({ type: "set_model", provider, modelId: id });
    return;
  }
  if (configId === "thought_level") {
    await session.handle({ type: "set_thinking_level", level: value as ThinkingLevel });
    return;
  }
  throw new PithError("invalid_request", `Unknown config option "${configId}" (known: model, thought_level)`);
}
