// Public surface of the tools layer.
export * from "./builtin-tools.js";
export type { VisionPort } from "./images/index.js";
export { createReferenceTools, REFERENCE_TOOL_NAMES, type ReferenceToolSwitches, type ReferenceToolsOptions } from "./reference-tools.js";
export { runTool } from "./run-tool.js";
export type { Tool, ToolContext } from "./types.js";
export { validateArgs, validationErrorText } from "./validate-args.js";
export { applyOutputNotice, formatNotice, type OutputMeta } from "./output-notice.js";
export { createNodeFsOps, type FsOps, type FsStat, type FsDirEntry } from "./ops/fs-ops.js";
export { overlayTextFiles, type TextFiles } from "./ops/overlay-fs.js";
export { childEnvironment, type ChildEnvOptions } from "./ops/child-env.js";
export { createNodeExecOps, NONINTERACTIVE_ENV, defaultShell, type CommandLine, type ExecOps, type ExecOptions, type ExecResult, type NodeExecOptions } from "./ops/exec-ops.js";
export type { WriteGuard } from "./write/index.js";
export { killAllProcessGroups, liveProcessGroups } from "./ops/process-groups.js";
export { findOnPath } from "./search/ripgrep.js";
export { createMemoryTodoStore, type TodoStore } from "./todo-write/index.js";
export { resolveToolPath } from "./paths.js";
export { truncateHead, truncateTail, formatSize, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./truncate.js";
export { compileOutputSchema, createSubmitResultTool, MAX_OUTPUT_SCHEMA_BYTES, OutputSchemaError, SUBMIT_RESULT, type OutputSpec, type SubmittedResult } from "./submit-result/index.js";
