// Script files for the scripted provider (format: examples/scripted/README.md) and the
// process-wide reply cursor per script path.
import { readFile } from "node:fs/promises";
import { errorMessage } from "../../shared/errors.js";

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

export interface ScriptedReply {
  text?: string | string[];
  thinking?: string | string[];
  toolCalls?: ScriptedToolCall[];
  error?: string;
  delayMs?: number;
  chunkDelayMs?: number;
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  stopReason?: "stop" | "length" | "toolUse";
}

export interface Script {
  replies: ScriptedReply[];
  loop?: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isText = (v: unknown) => v === undefined || typeof v === "string" || (Array.isArray(v) && v.every((s) => typeof s === "string"));
const isDelay = (v: unknown) => v === undefined || (typeof v === "number" && v >= 0 && Number.isFinite(v));

function checkReply(r: unknown, i: number): string | undefined {
  const at = `replies[${i}]`;
  if (!isObj(r)) return `${at} must be an object`;
  if (!isText(r.text)) return `${at}.text must be a string or an array of strings`;
  if (!isText(r.thinking)) return `${at}.thinking must be a string or an array of strings`;
  if (r.error !== undefined && typeof r.error !== "string") return `${at}.error must be a string`;
  if (!isDelay(r.delayMs) || !isDelay(r.chunkDelayMs)) return `${at}: delays must be non-negative numbers`;
  if (r.stopReason !== undefined && !["stop", "length", "toolUse"].includes(r.stopReason as string)) {
    return `${at}.stopReason must be "stop", "length" or "toolUse"`;
  }
  if (r.usage !== undefined && !isObj(r.usage)) return `${at}.usage must be an object`;
  if (r.toolCalls === undefined) return undefined;
  if (!Array.isArray(r.toolCalls)) return `${at}.toolCalls must be an array`;
  for (const [j, c] of r.toolCalls.entries()) {
    if (!isObj(c) || typeof c.name !== "string" || (c.arguments !== undefined && !isObj(c.arguments))) {
      return `${at}.toolCalls[${j}] needs a string "name" and an object "arguments"`;
    }
  }
  return undefined;
}

/** Parses and validates a script; throws an Error naming the problem. */
export function parseScript(text: string, path: string): Script {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`Scripted provider: script ${path} is not valid JSON (${errorMessage(err)})`);
  }
  if (!isObj(data) || !Array.isArray(data.replies)) throw new Error(`Scripted provider: script ${path} needs a "replies" array`);
  for (const [i, r] of data.replies.entries()) {
    const problem = checkReply(r, i);
    if (problem) throw new Error(`Scripted provider: script ${path}: ${problem}`);
  }
  const replies = (data.replies as ScriptedReply[]).map((r) => ({
    ...r,
    toolCalls: r.toolCalls?.map((c) => ({ ...c, arguments: c.arguments ?? {} })),
  }));
  return { replies, loop: data.loop === true };
}

/** Where each script is: how many replies of it were played. One set per session. */
export class ScriptCursors {
  private readonly cursors = new Map<string, number>();

  /** Takes the next reply of the script at `path` (absolute), advancing its cursor. */
  async next(path: string): Promise<ScriptedReply> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (err) {
      throw new Error(`Scripted provider: cannot read script ${path} (${errorMessage(err)})`);
    }
    const script = parseScript(text, path);
    const n = this.cursors.get(path) ?? 0;
    const idx = script.loop && script.replies.length > 0 ? n % script.replies.length : n;
    if (idx >= script.replies.length) throw new Error(`Scripted provider: script ${path} has no more replies`);
    this.cursors.set(path, n + 1);
    return script.replies[idx];
  }

  /** Forgets every cursor, or the one of `path`. */
  reset(path?: string): void {
    if (path === undefined) this.cursors.clear();
    else this.cursors.delete(path);
  }
}
