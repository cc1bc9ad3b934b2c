// The tool contract shared by built-ins, extension tools and host tools.
import type { ToolEffect, ToolPath } from "../shared/tool-effect.js";
import type { AgentToolResult } from "../shared/types.js";

export type { ToolEffect, ToolPath } from "../shared/tool-effect.js";

export interface ToolContext {
  /** Absolute working directory of the session. */
  cwd: string;
  toolCallId: string;
  /** Fires on abort (and on a steering interrupt). Non-abortable tools receive a never-firing signal. */
  signal: AbortSignal;
  /** Streams a partial result; becomes a `tool_execution_update` event. */
  onUpdate: (partial: AgentToolResult) => void;
}

export interface Tool<Args = any> {
  name: string;
  label: string;
  description: string;
  /** A few words for lists that cannot carry the description (call_tool's); default: its first sentence. */
  summary?: string;
  /** JSON Schema of the arguments (TypeBox schemas are JSON Schema). */
  parameters: Record<string, unknown>;
  /** What the tool does (src/shared/tool-effect.ts): permission modes decide by it. */
  effect: ToolEffect;
  /**
   * The places a call reads (a `read-only` tool) or writes (a `writes-files` tool), as the model
   * wrote them: `read(...)` rules judge the first, `edit(...)`/`write(...)` rules the second.
   * Called before the arguments are validated: never throws, skips what it cannot read.
   */
  paths?(args: Record<string, unknown>): ToolPath[];
  /** "exclusive" tools wait for earlier calls of the batch and block later ones. Default "shared". */
  concurrency?: "shared" | "exclusive";
  nonAbortable?: boolean;
  /** Registered but not offered to the model unless activated. */
  hidden?: boolean;
  /** Offered through `call_tool` instead of its own definition (setting `tools.deferred`, src/agent/tool-shelf.ts). */
  deferred?: boolean;
  /** The tool checks its own arguments (the generic schema check is skipped). */
  validatesOwnArguments?: boolean;
  /** Where the tool came from; only built-ins are wrapped by output truncation. */
  source?: "builtin" | "extension" | "host" | "mcp";
  /** Why the tool is not offered now (a missing dependency), or undefined when it is. */
  unavailable?(): string | undefined;
  /** Settles `unavailable()` (a dependency probe); awaited before a run starts. */
  ready?(): Promise<void>;
  /** Releases what the tool holds (a kernel, a child process) when the session closes. */
  dispose?(): Promise<void> | void;
  /** Resolves to the result or throws; a thrown error becomes an `isError` result. */
  execute(args: Args, ctx: ToolContext): Promise<AgentToolResult>;
}

/** What running one tool call produced. */
export interface ToolOutcome {
  result: AgentToolResult;
  isError: boolean;
}
