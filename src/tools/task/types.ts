// The `task` tool's port to the composition root: tools/ builds no sessions itself.
import type { ThinkingLevel, Usage } from "../../shared/types.js";

/** An agent definition (built-in, or Markdown with front matter in an agents folder). */
export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names the subagent gets; undefined = every tool of a normal session. */
  tools?: string[];
  /** `provider/id` or an id; undefined = the parent's current model. */
  model?: string;
  /** Front matter `thinkingLevel` (the reference's); undefined = the parent's current level. */
  thinkingLevel?: ThinkingLevel;
  /** Appended to the subagent's system prompt. */
  systemPrompt: string;
  /** Where it was defined ("builtin" or the file). */
  source: string;
  /** oh-my-pi's agentSource: built in, PITH_HOME/agents, or the project's folders (undefined: by `source`). */
  scope?: "bundled" | "user" | "project";
}

/** What a subagent reports while it runs (for the parent's `tool_execution_update`). */
export interface SubagentProgress {
  /** A short line: "thinking", "bash: npm test", "answering". */
  activity: string;
  turns: number;
  tokens: number;
}

export interface SubagentRunResult {
  status: "completed" | "aborted" | "error";
  /** The final assistant text (the answer). */
  text: string;
  error?: string;
  /** The validated structured result, when the call gave a schema. */
  output?: unknown;
  usage: Usage;
  turns: number;
  sessionFile?: string;
  model?: string;
}

/** One running subagent session. */
export interface Subagent {
  run(assignment: string, o: { schema?: unknown; onProgress(p: SubagentProgress): void }): Promise<SubagentRunResult>;
  abort(): Promise<void>;
  close(): Promise<void>;
}

/** Where a subagent sits in its `task` call (for oh-my-pi's subagent frames). */
export interface SubagentMeta {
  index: number;
  description: string;
  /** The task's own assignment (without the call's `context`). */
  assignment: string;
  parentToolCallId: string;
}

/** Implemented by the composition root for one parent session. */
export interface SubagentFactory {
  /** Nesting depth of the parent session (0 = a top-level session). */
  readonly depth: number;
  maxRecursionDepth: number;
  maxConcurrency: number;
  agents(): AgentDefinition[];
  create(agent: AgentDefinition, label: string, meta: SubagentMeta): Promise<Subagent>;
}


