// The reference's (xcsh) tools beyond pith's core set, each
// switched by the reference's setting name. Every tool loads its library on its first call.
import { createAstEditTool, createAstGrepTool } from "./ast-grep/index.js";
import { createCalcTool } from "./calc/index.js";
import { createDisplayImageTool, createInspectImageTool, type VisionPort } from "./images/index.js";
import { createNotebookTool } from "./notebook/index.js";
import { confineFsOps, createNodeFsOps, type FsOps } from "./ops/fs-ops.js";
import type { WriteRefusal } from "../shared/confined-fs.js";
import { createPythonTool } from "./python/index.js";
import { createRenderMermaidTool } from "./render-mermaid/index.js";
import type { CommandLine } from "./ops/exec-ops.js";
import type { Tool } from "./types.js";

type WrapCommand = (line: CommandLine, cwd: string) => CommandLine;
import type { WriteGuard } from "./write/index.js";

export const REFERENCE_TOOL_NAMES = ["python", "ast_grep", "ast_edit", "notebook", "calc", "render_mermaid", "inspect_image", "display_image"] as const;

/** The reference's switches (settings `astGrep.enabled`, …); absent means on, as in the reference. */
export interface ReferenceToolSwitches {
  astGrep?: boolean;
  astEdit?: boolean;
  notebook?: boolean;
  calc?: boolean;
  renderMermaid?: boolean;
  inspectImage?: boolean;
}

export interface ReferenceToolsOptions {
  fs?: FsOps;
  guardWrite?: WriteGuard;
  /** Under a sandbox: judges where every file write really lands (see confineFsOps). */
  confineWrites?: WriteRefusal;
  switches?: ReferenceToolSwitches;
  /** ripgrep for the file walk of ast_grep / ast_edit (null: the built-in walker). */
  rgPath?: string | null;
  /** Environment of child processes (rg, the Python kernel). */
  env?: Record<string, string>;
  /** The sandbox's wrapper: the Python kernel (and its probe) run inside it. */
  wrapCommand?: WrapCommand;
  /** Settings python.toolMode ("bash-only": no python tool) and python.interpreter. */
  python?: { toolMode?: "both" | "bash-only" | "ipy-only"; interpreter?: string };
  /** inspect_image's model call; without it inspect_image is not created. */
  vision?: VisionPort;
}

/** The enabled reference tools, in REFERENCE_TOOL_NAMES order. */
export function createReferenceTools(opts: ReferenceToolsOptions = {}): Tool[] {
  const on = { astGrep: true, astEdit: true, notebook: true, calc: true, renderMermaid: true, inspectImage: true, ...opts.switches };
  const base = opts.fs ?? createNodeFsOps();
  const fs = opts.confineWrites ? confineFsOps(base, opts.confineWrites) : base;
  const ast = { fs, rgPath: opts.rgPath ?? null, env: opts.env, guardWrite: opts.guardWrite };
  const tools: Tool[] = [];
  if (opts.python?.toolMode !== "bash-only") tools.push(createPythonTool({ interpreter: opts.python?.interpreter, env: opts.env, wrapCommand: opts.wrapCommand }));
  if (on.astGrep) tools.push(createAstGrepTool(ast));
  if (on.astEdit) tools.push(createAstEditTool(ast));
  if (on.notebook) tools.push(createNotebookTool({ fs, guardWrite: opts.guardWrite }));
  if (on.calc) tools.push(createCalcTool());
  if (on.renderMermaid) tools.push(createRenderMermaidTool());
  if (on.inspectImage && opts.vision) tools.push(createInspectImageTool({ fs, vision: opts.vision }));
  tools.push(createDisplayImageTool({ fs }));
  return tools;
}
