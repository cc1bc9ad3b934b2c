// What the stand-ins for pi's packages need from the composition root: facts and functions the
// extensions layer cannot reach itself.
import type { AgentMessage } from "../../shared/types.js";

export interface PiModuleServices {
  /** pi's agent directory (`getAgentDir()`): pith's home folder. */
  agentDir: string;
  /** pi's `convertToLlm`: context messages as the model receives them. */
  convertToLlm(messages: AgentMessage[]): unknown[];
}
