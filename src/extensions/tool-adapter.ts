// pi's `registerTool` definition → pith's Tool contract (`source: "extension"`).
import type { AgentToolResult } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import type { AnyToolDefinition, ExtensionContext } from "./types.js";

/** Why `def` cannot be offered to a model, or undefined when it can. */
export function toolDefinitionProblem(def: AnyToolDefinition): string | undefined {
  const p = def.parameters as unknown;
  if (typeof p !== "object" || p === null || Array.isArray(p)) {
    return `Tool "${def.name}" must provide a JSON Schema object as parameters`;
  }
  if ("~standard" in p && !("type" in p)) {
    return `Tool "${def.name}": only TypeBox / JSON Schema parameters are supported`;
  }
  if (typeof def.description !== "string" || def.description.trim() === "") {
    return `Tool "${def.name}" must provide a non-empty description`;
  }
  return undefined;
}

function checkResult(name: string, result: unknown): AgentToolResult {
  const r = result as AgentToolResult | undefined;
  if (!r || typeof r !== "object" || !Array.isArray(r.content)) {
    throw new Error(`Extension tool "${name}" returned no result with a content array`);
  }
  return r;
}

export function adaptExtensionTool(def: AnyToolDefinition, getContext: () => ExtensionContext): Tool {
  const tool: Tool = {
    name: def.name,
    label: def.label?.trim() || def.name,
    description: def.description,
    parameters: def.parameters as Record<string, unknown>,
    hidden: def.hidden === true || def.defaultInactive === true,
    // read-only only when the definition says `readOnly: true`
    effect: def.readOnly === true ? "read-only" : "unknown",
    source: "extension",
    async execute(args, ctx) {
      const result = await def.execute(ctx.toolCallId, args, ctx.signal, ctx.onUpdate, getContext());
      return checkResult(def.name, result);
    },
  };
  if (def.concurrency === "shared" || def.concurrency === "exclusive") tool.concurrency = def.concurrency;
  return tool;
}
