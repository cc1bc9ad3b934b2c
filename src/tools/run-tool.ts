// Runs one tool call: validate, execute, turn throws into error results, and put built-in
// output through the notice/truncation wrapper. Never throws.
import { errorMessage } from "../shared/errors.js";
import type { AgentToolResult } from "../shared/types.js";
import { applyOutputNotice } from "./output-notice.js";
import type { Tool, ToolContext, ToolOutcome } from "./types.js";
import { validateArgs, validationErrorText } from "./validate-args.js";

function errorOutcome(text: string): ToolOutcome {
  return { isError: true, result: { content: [{ type: "text", text }], details: {} } };
}

/** Validates `args` against `tool.parameters`, runs the tool and normalises the outcome. */
export async function runTool(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  let validated: unknown = args;
  if (!tool.validatesOwnArguments) {
    try {
      const v = validateArgs(tool.parameters, args);
      if (!v.ok) return errorOutcome(validationErrorText(tool.name, v.errors, args));
      validated = v.value;
    } catch (err) {
      return errorOutcome(`Invalid schema for tool "${tool.name}": ${errorMessage(err)}`);
    }
  }
  try {
    const raw = await tool.execute(validated, ctx);
    const result = normalise(raw);
    return { isError: false, result: tool.source === "builtin" ? applyOutputNotice(result) : result };
  } catch (err) {
    return errorOutcome(errorMessage(err));
  }
}

function normalise(raw: AgentToolResult | undefined): AgentToolResult {
  if (!raw || !Array.isArray(raw.content)) return { content: [], details: raw?.details ?? {} };
  return raw;
}
