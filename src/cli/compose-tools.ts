// The built-in tools of one session, made from its folder's settings as they are at the moment
// (again when the folder is trusted while the session runs): the composition root's part.
import { createBuiltinTools, createNodeExecOps, createReferenceTools, type FsOps, type Tool } from "../tools/index.js";
import type { LspRuntime } from "../lsp/index.js";
import type { TodoAccess } from "../session/index.js";
import type { ProjectLayer } from "./project-layer.js";
import type { SessionSandboxSetup } from "./sandbox-setup.js";
import { applyPythonMode, referenceToolsOptions } from "./tool-settings.js";
import type { createVisionPort } from "./vision.js";

/** What the tools are made with, beside the layer's settings. */
export interface ToolParts {
  cwd: string;
  layer: ProjectLayer;
  env: Record<string, string | undefined>;
  tempDir: string;
  rgPath: string | null;
  /** The session's files (ACP: the editor's buffers, else the disk). */
  fs: FsOps;
  todos: TodoAccess;
  boxed: SessionSandboxSetup | undefined;
  vision: ReturnType<typeof createVisionPort>;
  modelAcceptsImages(): boolean;
  /** The `task` tool, made now (its agent list is read then); undefined when off. */
  taskTool(): Tool | undefined;
  /** The session's language servers (`lsp.enabled`): the `lsp` tool and diagnostics after writes. */
  lsp: LspRuntime | undefined;
  /** Judges the files the `lsp` tool's rename would change, each as an `edit` of it. */
  approveFileWrites(paths: readonly string[], call: { toolCallId: string; signal: AbortSignal }): Promise<void>;
}

/** Every built-in tool of a session, from its layer's settings as they are now. */
export function toolsOf(p: ToolParts): Tool[] {
  const { cwd, layer, boxed, vision } = p;
  const { settings, childEnv } = layer;
  // PI_EDIT_VARIANT (replace | hashline) wins over the setting edit.mode (the reference's variable).
  const variant = p.env.PI_EDIT_VARIANT;
  const editMode = variant === "hashline" || variant === "replace" ? variant : settings.edit.mode;
  const exec = boxed ? createNodeExecOps({ env: childEnv, wrapCommand: boxed.sandbox.wrap }) : undefined;
  const builtin = createBuiltinTools({
    cwd,
    tempDir: p.tempDir,
    rgPath: p.rgPath,
    todos: p.todos,
    modelAcceptsImages: p.modelAcceptsImages,
    env: childEnv,
    exec,
    guardWrite: boxed?.guardWrite,
    confineWrites: boxed?.refuseWrite,
    fs: p.fs,
    readLineNumbers: settings.readLineNumbers,
    editMode,
    fileObserver: p.lsp?.observer,
  });
  const reference = createReferenceTools({
    ...referenceToolsOptions(settings),
    rgPath: p.rgPath,
    env: childEnv,
    vision,
    guardWrite: boxed?.guardWrite,
    confineWrites: boxed?.refuseWrite,
    wrapCommand: boxed?.sandbox.wrap,
    fs: p.fs,
  });
  const task = p.taskTool();
  const lspTool = p.lsp?.createTool(p.approveFileWrites);
  return applyPythonMode([...builtin, ...reference, ...(task ? [task] : []), ...(lspTool ? [lspTool] : [])], settings);
}
