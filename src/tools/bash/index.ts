// `bash`: one shell command per call in its own process group, streamed tail output,
// tail truncation with the full output spilled to a temp file (pi).
import { Type, type Static } from "typebox";
import type { AgentToolResult } from "../../shared/types.js";
import { NONINTERACTIVE_ENV, type ExecOps } from "../ops/exec-ops.js";
import { formatNotice, type OutputMeta } from "../output-notice.js";
import { jsonSchema } from "../schema.js";
import type { Tool, ToolContext } from "../types.js";
import { OutputCollector, type CollectedOutput } from "./output-collector.js";

const BASH_DESCRIPTION = `Run a shell command in the working directory (stdout and stderr merged). Output keeps the last 2000 lines or 50KB; the full output is saved to a file named in the result. Non-zero exit = error. Each call is a fresh shell.`;

const BashParams = Type.Object({
  command: Type.String(),
  timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "Seconds" })),
});
export type BashArgs = Static<typeof BashParams>;

export interface BashToolOptions {
  exec: ExecOps;
  tempDir: string;
  /** Variables set for every command. Default NONINTERACTIVE_ENV (PAGER=cat, TERM=dumb, ...). */
  env?: Record<string, string>;
  /** Minimum time between streamed updates. Default 100 ms. */
  updateIntervalMs?: number;
}

function metaFor(out: CollectedOutput): OutputMeta | undefined {
  const t = out.truncation;
  if (!t.truncated && !out.fullOutputPath) return undefined;
  const meta: OutputMeta = {
    truncation: { startLine: Math.max(1, out.totalLines - t.outputLines + 1), endLine: out.totalLines, totalLines: out.totalLines },
  };
  if (t.truncatedBy === "bytes") meta.truncation!.maxBytes = t.maxBytes;
  if (out.fullOutputPath) meta.hint = `Full output: ${out.fullOutputPath}`;
  return meta;
}

function withNotice(text: string, meta: OutputMeta | undefined): string {
  if (!meta) return text;
  return `${text}\n\n[${formatNotice(meta)}]`;
}

function throttle(fn: () => void, intervalMs: number) {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    poke() {
      if (timer) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) {
        last = Date.now();
        fn();
        return;
      }
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        fn();
      }, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

async function run(args: BashArgs, ctx: ToolContext, opts: BashToolOptions): Promise<AgentToolResult> {
  const collector = new OutputCollector(opts.tempDir);
  const updates = throttle(() => ctx.onUpdate({ content: [{ type: "text", text: collector.preview() }], details: {} }), opts.updateIntervalMs ?? 100);
  let res;
  try {
    res = await opts.exec.exec(args.command, {
      cwd: ctx.cwd,
      signal: ctx.signal,
      timeoutMs: args.timeout ? args.timeout * 1000 : undefined,
      env: opts.env ?? NONINTERACTIVE_ENV,
      onData: (chunk) => {
        collector.push(chunk);
        updates.poke();
      },
    });
  } finally {
    updates.cancel();
  }
  const out = await collector.finish();
  const meta = metaFor(out);
  const shown = withNotice(out.text, meta);
  const prefix = out.text ? `${shown}\n\n` : "";
  if (res.aborted) throw new Error(`${prefix}Command aborted`);
  if (res.timedOut) throw new Error(`${prefix}Command timed out after ${args.timeout} seconds`);
  if (res.exitCode === null) throw new Error(`${prefix}Command was killed by a signal`);
  if (res.exitCode !== 0) throw new Error(`${prefix}Command exited with code ${res.exitCode}`);
  const details: Record<string, unknown> = {};
  if (args.timeout) details.timeoutSeconds = args.timeout;
  if (out.fullOutputPath) details.fullOutputPath = out.fullOutputPath;
  if (meta) {
    details.truncation = out.truncation;
    details.meta = meta;
  }
  return { content: [{ type: "text", text: out.text || "(no output)" }], details };
}

export function createBashTool(opts: BashToolOptions): Tool<BashArgs> {
  return {
    name: "bash",
    label: "Bash",
    description: BASH_DESCRIPTION,
    parameters: jsonSchema(BashParams),
    effect: "runs-commands",
    concurrency: "exclusive",
    source: "builtin",
    execute: (args, ctx) => run(args, ctx, opts),
  };
}
