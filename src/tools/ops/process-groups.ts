// The process-wide registry of child process groups lives in shared, so every
// layer that starts a process (tools, MCP, extensions, checkpoints) registers it.
export {
  endProcessGroup,
  killAllProcessGroups,
  liveProcessGroups,
  registerProcessGroup,
  unregisterProcessGroup,
} from "../../shared/process-group-registry.js";
export { signalProcessGroup } from "../../shared/process-group.js";
