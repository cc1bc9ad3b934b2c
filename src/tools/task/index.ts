// The `task` tool (subagents) and its port to the composition root.
export { agentFiles, agentMcpFilter, BUILTIN_AGENTS, CLAUDE_CODE_TOOLS, loadAgents, parseAgentMarkdown, projectAgentDirs } from "./agents.js";
export { addUsage, createTaskTool, emptyUsage, type SubagentDetails, type TaskArgs, type TaskItem } from "./task-tool.js";
export type { AgentDefinition, Subagent, SubagentFactory, SubagentMeta, SubagentProgress, SubagentRunResult } from "./types.js";
