// Message builders shared by the session tests (not used by production code).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { emptyUsage, type AssistantMessage, type ToolResultMessage, type UserMessage } from "../../src/shared/types.js";

export function tmpDir(prefix = "pith-store-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function user(text: string, timestamp = 1_700_000_000_000): UserMessage {
  return { role: "user", content: [{ type: "text", text }], attribution: "user", timestamp };
}

export function assistant(text: string, opts: { toolCalls?: number; input?: number; output?: number; cost?: number } = {}): AssistantMessage {
  const usage = emptyUsage();
  usage.input = opts.input ?? 10;
  usage.output = opts.output ?? 5;
  usage.totalTokens = usage.input + usage.output;
  usage.cost.total = opts.cost ?? 0.001;
  const content: AssistantMessage["content"] = [{ type: "text", text }];
  for (let i = 0; i < (opts.toolCalls ?? 0); i++) {
    content.push({ type: "toolCall", id: `call_${i}`, name: "read", arguments: { path: `f${i}.ts` } });
  }
  return {
    role: "assistant",
    content,
    api: "openai-completions",
    provider: "openai",
    model: "gpt-test",
    usage,
    stopReason: opts.toolCalls ? "toolUse" : "stop",
    timestamp: 1_700_000_000_500,
  };
}

export function toolResult(text: string, id = "call_0"): ToolResultMessage {
  return { role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: 1_700_000_001_000 };
}
