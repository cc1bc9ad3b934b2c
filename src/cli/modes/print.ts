// Print mode (`-p`: final text to stdout) and JSON mode (`--mode json`: every event as JSONL),
// spec/engine.md §13. Piped stdin is prepended to the first prompt.
import { attachExtensions } from "../extensions.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createNoopUi } from "../../extensions/ui.js";
import type { AgentSession } from "../../session/index.js";
import type { AssistantMessage } from "../../shared/types.js";
import { FrameWriter } from "../../transport/frame-writer.js";
import type { ParsedArgs } from "../args.js";
import { composeSession, type Environment } from "../compose.js";
import type { Settings } from "../settings.js";

async function readPipedStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.trim() ? text : undefined;
}

/** The prompts: (stdin + @file texts + first message), then each further message. */
function buildPrompts(args: ParsedArgs, stdin: string | undefined, cwd: string): string[] {
  const files = (args.fileArgs ?? []).map((f) => {
    const p = path.resolve(cwd, f.replace(/^@/, ""));
    return `<file path="${p}">\n${readFileSync(p, "utf8")}\n</file>`;
  });
  const messages = [...(args.messages ?? [])];
  const first = [stdin?.trimEnd(), ...files, messages.shift()].filter((s): s is string => !!s && s.length > 0).join("\n");
  return first ? [first, ...messages] : messages;
}

export async function runPrintMode(args: ParsedArgs, settings: Settings, e: Environment, mode: "print" | "json"): Promise<number> {
  const stdin = await readPipedStdin();
  const { session, pithHome } = await composeSession(args, settings, e);
  const prompts = buildPrompts(args, stdin, session.cwd);
  if (prompts.length === 0) {
    e.log("No prompt given: pass a message, or pipe text on stdin.");
    return 2;
  }
  if (!session.models.current) {
    e.log("No models available. Set an API key environment variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...),");
    e.log(`configure ${pithHome}/models.json, or run offline with --provider scripted --model <script.json>.`);
    return 1;
  }
  const log = (info: { extensionPath: string; error: string }) => e.log(`Extension error (${info.extensionPath}): ${info.error}`);
  await attachExtensions(args, session, pithHome, e, { ui: createNoopUi(), hasUI: false, onError: log, onPromptError: (_c, m) => e.log(m) });
  const writer = mode === "json" ? new FrameWriter(process.stdout) : undefined;
  if (writer) {
    writer.write({ ...session.history.header });
    session.subscribe((event) => writer.write(event));
  }
  for (const text of prompts) {
    const handle = session.prompt(text);
    try {
      await handle.accepted;
    } catch (err) {
      e.log((err as Error).message);
      return 1;
    }
    try {
      await handle.done;
      await session.waitForSettled();
    } catch (err) {
      e.log((err as Error).message);
      return 1;
    }
  }
  if (writer) await writer.flush();
  await session.close();
  return mode === "json" ? 0 : printFinal(session, e);
}

function printFinal(session: AgentSession, e: Environment): number {
  const messages = session.history.messages;
  const last = messages[messages.length - 1];
  if (!last || last.role !== "assistant") return 0;
  const msg = last as AssistantMessage;
  if (msg.stopReason === "error" || msg.stopReason === "aborted") {
    e.log(msg.errorMessage ?? (msg.stopReason === "error" ? "Request error" : "Request aborted"));
    return 1;
  }
  for (const block of msg.content) if (block.type === "text") process.stdout.write(block.text + "\n");
  return 0;
}
