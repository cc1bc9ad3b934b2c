// What an extension gets when it imports pi's AI and agent-core packages in pith: schema helpers
// and thinking levels. Model calls made by an extension itself (`complete`, `completeSimple`,
// `streamSimple`, the `Agent` class) are not offered: pith's providers stay behind the session,
// and an extension that needs the model asks the session (`pi.sendUserMessage`). Calling them
// fails with an error that says so.
import { Type } from "typebox";

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;

/** pi's `StringEnum`: a string schema limited to `values` (JSON Schema `enum`). */
export function StringEnum(values: readonly string[], options: Record<string, unknown> = {}): unknown {
  return Type.Unsafe<string>({ type: "string", enum: [...values], ...options });
}

/** A level a model accepts: "off" for a model without reasoning, else the level itself. */
export function clampThinkingLevel(model: { reasoning?: boolean } | undefined, level: string): string {
  if (model && model.reasoning === false) return "off";
  return (THINKING_LEVELS as readonly string[]).includes(level) ? level : "off";
}

function notOffered(name: string): () => never {
  return () => {
    throw new Error(`${name}() is not available to extensions in pith: ask the session for a reply (pi.sendUserMessage) instead`);
  };
}

/** pi's agent class cannot run outside pi's own session: constructing it says so. */
export class Agent {
  constructor() {
    throw new Error("pi's Agent class is not available to extensions in pith: use pith's task tool or pi.sendUserMessage");
  }
}

export function aiModule(): Record<string, unknown> {
  return {
    Type,
    StringEnum,
    clampThinkingLevel,
    complete: notOffered("complete"),
    completeSimple: notOffered("completeSimple"),
    stream: notOffered("stream"),
    streamSimple: notOffered("streamSimple"),
  };
}

export function agentCoreModule(): Record<string, unknown> {
  return { Agent };
}
