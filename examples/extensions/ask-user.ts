/**
 * ask-user: a tool that walks the user through three dialogs (confirm, select, input) and
 * returns what was chosen. Over RPC each dialog is an `extension_ui_request` the host answers
 * with an `extension_ui_response`.
 *
 * Source-compatible with pi: there the type import would read
 * `import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";`
 *
 * Try it: pith --mode rpc -e examples/extensions/ask-user.ts
 */
import { Type } from "typebox";
import type { ExtensionAPI } from "../../src/extensions/types.js";

export default function askUser(pi: ExtensionAPI) {
  pi.registerTool({
    name: "deploy_check",
    label: "Deploy check",
    description: "Ask the user whether to deploy, to which environment, and with which release note.",
    parameters: Type.Object({
      service: Type.String({ description: "The service about to be deployed" }),
    }),
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      const go = await ctx.ui.confirm("Deploy", `Deploy ${params.service} now?`, { signal });
      if (!go) {
        return { content: [{ type: "text", text: `Deploy of ${params.service} cancelled by the user.` }], details: { deployed: false } };
      }
      const environment = await ctx.ui.select("Environment", ["staging", "production"], { signal });
      if (environment === undefined) {
        return { content: [{ type: "text", text: "No environment chosen." }], details: { deployed: false } };
      }
      const note = (await ctx.ui.input("Release note", "what changed?", { signal })) ?? "";
      ctx.ui.notify(`Deploying ${params.service} to ${environment}`, "info");
      return {
        content: [{ type: "text", text: `confirmed=true environment=${environment} note=${note}` }],
        details: { deployed: true, environment, note },
      };
    },
  });
}
