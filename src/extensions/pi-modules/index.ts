// pi's own packages as an extension sees them in pith: every name pi redirects to its built-in
// copies (the `@earendil-works/*` packages and their older `@mariozechner/*` names, `typebox` and
// `@sinclair/typebox`) resolves to pith's implementation, so an extension never loads a stale pi
// copy from its own node_modules. Built once per load, handed to jiti as virtual modules.
import * as typebox from "typebox";
import * as typeboxCompile from "typebox/compile";
import * as typeboxValue from "typebox/value";
import { agentCoreModule, aiModule } from "./ai.js";
import { codingAgentModule } from "./coding-agent.js";
import type { PiModuleServices } from "./services.js";
import * as tui from "./tui.js";

export type { PiModuleServices };

/** Specifier → module object, for jiti's `virtualModules`. */
export function piVirtualModules(services: PiModuleServices): Record<string, unknown> {
  const ai = aiModule();
  const agentCore = agentCoreModule();
  const codingAgent = { ...ai, ...agentCore, ...tui, ...codingAgentModule(services) };
  const modules: Record<string, unknown> = {
    typebox,
    "typebox/compile": typeboxCompile,
    "typebox/value": typeboxValue,
    "@sinclair/typebox": typebox,
    "@sinclair/typebox/compile": typeboxCompile,
    "@sinclair/typebox/compiler": typeboxCompile,
    "@sinclair/typebox/value": typeboxValue,
  };
  for (const scope of ["@earendil-works", "@mariozechner"]) {
    modules[`${scope}/pi-coding-agent`] = codingAgent;
    modules[`${scope}/pi-agent-core`] = agentCore;
    modules[`${scope}/pi-tui`] = tui;
    modules[`${scope}/pi-ai`] = ai;
    modules[`${scope}/pi-ai/compat`] = ai;
  }
  return modules;
}
