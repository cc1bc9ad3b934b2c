// `python`: cells run in a persistent IPython kernel per session (the reference's tool). The
// interpreter is probed once, on first need; without one the tool is not offered and says why.
import { Type, type Static } from "typebox";
import type { AgentToolResult, ImageContent, TextContent } from "../../shared/types.js";
import { resolveToolPath } from "../paths.js";
import { jsonSchema } from "../schema.js";
import type { CommandLine } from "../ops/exec-ops.js";
import type { Tool } from "../types.js";
import type { KernelEvent, PythonKernel } from "./kernel.js";
import type { ProbeResult } from "./probe.js";

const DESCRIPTION = `Runs Python cells sequentially in a persistent IPython kernel.
Kernel persists across calls and cells; imports, variables, and functions survive—use this.
- Use one logical step per cell (imports, define function, test it, use it); pass several small cells in one call.
- Errors tell you which cell failed (e.g. "Cell 3 failed"); resubmit only the fixed cell (or fixed cell + remaining cells).
- timeout: seconds per call (default 30, max 600). reset: restart the kernel first. Rich outputs (matplotlib PNGs) come back as images.`;

const Params = Type.Object({
  cells: Type.Array(
    Type.Object({
      code: Type.String({ description: "Python code to execute" }),
      title: Type.Optional(Type.String({ description: "Cell label, e.g. 'imports', 'helper'" })),
    }),
    { description: "Cells to execute sequentially in persistent kernel" },
  ),
  timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (default: 30)" })),
  cwd: Type.Optional(Type.String({ description: "Working directory (default: cwd)" })),
  reset: Type.Optional(Type.Boolean({ description: "Restart kernel before execution" })),
});
export type PythonArgs = Static<typeof Params>;

export const DEFAULT_TIMEOUT_S = 30;
export const MAX_TIMEOUT_S = 600;

export interface PythonToolOptions {
  /** Setting python.interpreter; default: python3 on PATH, then /usr/bin/python3. */
  interpreter?: string;
  env?: Record<string, string>;
  /** The sandbox's wrapper: the interpreter probe and the kernel run inside it, in the session's roots. */
  wrapCommand?: (line: CommandLine, cwd: string) => CommandLine;
}

function cellText(events: KernelEvent[]): { text: string; images: ImageContent[] } {
  let text = "";
  const images: ImageContent[] = [];
  for (const e of events) {
    if (e.type === "stream") text += e.text;
    else if (e.type === "error") text += (text && !text.endsWith("\n") ? "\n" : "") + e.traceback.join("\n") + "\n";
    else {
      for (const mime of ["image/png", "image/jpeg"]) {
        if (typeof e.data[mime] === "string") images.push({ type: "image", data: (e.data[mime] as string).replace(/\s+/g, ""), mimeType: mime });
      }
      const plain = e.data["text/plain"] ?? e.data["text/markdown"];
      if (typeof plain === "string" && !(images.length && plain.startsWith("<Figure"))) text += (text && !text.endsWith("\n") ? "\n" : "") + plain + "\n";
    }
  }
  return { text: text.trim(), images };
}

export function createPythonTool(opts: PythonToolOptions = {}): Tool<PythonArgs> {
  let probe: Promise<ProbeResult> | undefined;
  let probed: ProbeResult | undefined;
  let kernel: PythonKernel | undefined;
  const check = (): Promise<ProbeResult> =>
    (probe ??= import("./probe.js")
      .then(({ probePython }) => probePython(opts))
      .catch((err: unknown) => ({ ok: false as const, reason: `Python probe failed: ${(err as Error).message}` }))
      .then((r) => (probed = r)));

  return {
    name: "python",
    summary: "Run Python cells in a persistent IPython kernel",
    label: "Python",
    description: DESCRIPTION,
    parameters: jsonSchema(Params),
    // runs the model's code in a Python kernel: it can do anything a program can
    effect: "runs-commands",
    concurrency: "exclusive",
    source: "builtin",
    unavailable() {
      if (probed) return probed.ok ? undefined : probed.reason;
      void check();
      return "checking for a Python interpreter with ipykernel and jupyter_client";
    },
    async ready() {
      await check();
    },
    async dispose() {
      await kernel?.dispose();
    },
    async execute(args, ctx) {
      const found = await check();
      if (!found.ok) throw new Error(`Python is not available: ${found.reason}`);
      const timeout = Math.min(MAX_TIMEOUT_S, Math.max(1, args.timeout ?? DEFAULT_TIMEOUT_S));
      const cwd = args.cwd ? resolveToolPath(args.cwd, ctx.cwd) : ctx.cwd;
      if (!kernel) {
        const { PythonKernel } = await import("./kernel.js");
        kernel = new PythonKernel({ interpreter: found.interpreter, cwd: ctx.cwd, env: opts.env, wrapCommand: opts.wrapCommand });
      }
      const outputs: string[] = [];
      const images: ImageContent[] = [];
      let live = "";
      let lastUpdate = 0;
      const many = args.cells.length > 1;
      for (let i = 0; i < args.cells.length; i++) {
        const cell = args.cells[i];
        const code = args.cwd ? `import os as __pith_os; __pith_os.chdir(${JSON.stringify(cwd)}); del __pith_os\n${cell.code}` : cell.code;
        const result = await kernel.execute(code, {
          timeoutSeconds: timeout,
          signal: ctx.signal,
          reset: i === 0 && args.reset,
          onEvent: (e) => {
            if (e.type !== "stream") return;
            live = (live + e.text).slice(-50_000);
            const now = Date.now();
            if (now - lastUpdate >= 50) {
              lastUpdate = now;
              ctx.onUpdate({ content: [{ type: "text", text: live }], details: {} });
            }
          },
        });
        const { text, images: imgs } = cellText(result.events);
        images.push(...imgs);
        const header = `[${i + 1}/${args.cells.length}]${cell.title ? ` ${cell.title}` : ""}`;
        if (many) outputs.push(text ? `${header}\n${text}` : `${header} (ok)`);
        else if (text) outputs.push(text);
        const so = outputs.join("\n\n");
        if (result.status === "aborted") throw new Error(many ? `${so}\n\nCell ${i + 1} aborted: Command aborted` : so || "Command aborted");
        if (result.status === "timeout") {
          throw new Error(`${so ? `${so}\n\n` : ""}[Command timed out after ${timeout} seconds]${many ? ` in cell ${i + 1}` : ""}`);
        }
        if (result.status === "error") {
          throw new Error(
            many
              ? `${so}\n\nCell ${i + 1} failed. Earlier cells succeeded—their state persists. Fix only cell ${i + 1}.`
              : `${so}\n\nCommand exited with code 1`,
          );
        }
      }
      const text = outputs.join("\n\n") || (images.length ? "(no text output)" : "(no output)");
      const content: Array<TextContent | ImageContent> = [{ type: "text", text }, ...images];
      const out: AgentToolResult = { content, details: { cells: args.cells.length, ...(images.length ? { images: images.length } : {}) } };
      return out;
    },
  };
}
