// Print mode (`-p`: final text to stdout) and JSON mode (`--mode json`: every event as JSONL),
// Piped stdin is prepended to the first prompt.
import { attachExtensions, headlessBindings } from "../extensions.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sessionWiring, type AgentSession, type PromptOutcome } from "../../session/index.js";
import type { OutputSpec } from "../../tools/index.js";
import { errorMessage } from "../../shared/errors.js";
import type { AssistantMessage } from "../../shared/types.js";
import { FrameWriter } from "../../transport/frame-writer.js";
import type { ParsedArgs } from "../args.js";
import { composeSession, type Environment } from "../compose.js";
import type { SettingsSource } from "../project-layer.js";

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

export async function runPrintMode(args: ParsedArgs, settings: SettingsSource, e: Environment, mode: "print" | "json"): Promise<number> {
  const stdin = await readPipedStdin();
  const { session, pithHome } = await composeSession(args, settings, e);
  const prompts = buildPrompts(args, stdin, session.cwd);
  if (prompts.length === 0) {
    e.log("No prompt given: pass a message, or pipe text on stdin.");
    return 2;
  }
  if (!session.model) {
    e.log("No models available. Set an API key environment variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...),");
    e.log(`configure ${pithHome}/models.json, or run offline with --provider scripted --model <script.json>.`);
    return 1;
  }
  await attachExtensions(args, session, pithHome, e.log, headlessBindings(e.log));
  let output: OutputSpec | undefined;
  if (args.outputSchema) {
    try {
      output = await session.compileOutputSchema(JSON.parse(readFileSync(path.resolve(e.cwd, args.outputSchema), "utf8")));
    } catch (err) {
      e.log(`--output-schema ${args.outputSchema}: ${errorMessage(err)}`);
      await session.close();
      return 2;
    }
  }
  const writer = mode === "json" ? new FrameWriter(process.stdout) : undefined;
  if (writer) {
    writer.write({ ...sessionWiring(session).history.header });
    session.subscribe((event) => writer.write(event));
  }
  let outcome: PromptOutcome | undefined;
  for (const [i, text] of prompts.entries()) {
    // The schema applies to the last prompt: its answer is what print mode prints.
    const handle = session.prompt(text, i === prompts.length - 1 && output ? { output, source: "interactive" } : { source: "interactive" });
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
    outcome = await handle.outcome;
  }
  if (writer) await writer.flush();
  await session.close();
  if (output) return printStructured(outcome, e, mode === "print");
  return mode === "json" ? 0 : printFinal(session, e);
}

/** `--output-schema`: the validated JSON alone on stdout (print mode), or the error on stderr. */
function printStructured(outcome: PromptOutcome | undefined, e: Environment, print: boolean): number {
  if (outcome?.status === "completed" && "output" in outcome) {
    if (print) process.stdout.write(JSON.stringify(outcome.output) + "\n");
    return 0;
  }
  e.log(outcome?.error?.message ?? (outcome?.status === "aborted" ? "The prompt was aborted" : "No structured result"));
  return 1;
}

function printFinal(session: AgentSession, e: Environment): number {
  const messages = sessionWiring(session).history.messages;
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
