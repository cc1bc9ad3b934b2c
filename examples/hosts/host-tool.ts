/**
 * host-tool: expose a function of the host process to the model as a tool.
 *
 *   npm run build
 *   npx tsx examples/hosts/host-tool.ts [pith args...]
 *
 * pith sends `host_tool_call` when the model calls `lookup_ticket`; the client runs `execute`,
 * streams progress with `update` (→ `tool_execution_update`) and answers `host_tool_result`
 * (`isError: true` when execute throws). An abort cancels the call: `ctx.signal` fires.
 *
 * Without pith args it runs offline: a scripted model calls the tool, then answers.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient, type HostTool } from "../../src/client/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function offlineArgs(): string[] {
  const script = path.join(mkdtempSync(path.join(tmpdir(), "pith-host-tool-")), "script.json");
  writeFileSync(script, JSON.stringify({
    replies: [
      { text: "Let me look that ticket up.", toolCalls: [{ name: "lookup_ticket", arguments: { id: "PITH-42" } }] },
      { text: "PITH-42 is open and assigned to the host team." },
    ],
  }));
  return ["--provider", "scripted", "--model", script, "--no-session"];
}

const tickets: Record<string, { status: string; owner: string }> = { "PITH-42": { status: "open", owner: "host team" } };

const lookupTicket: HostTool<{ id: string }> = {
  name: "lookup_ticket",
  label: "Lookup ticket",
  description: "Look up a ticket in the host's issue tracker by id.",
  parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
  async execute(args, ctx) {
    ctx.update({ content: [{ type: "text", text: `searching for ${args.id}…` }] });
    if (ctx.signal.aborted) throw new Error("cancelled");
    const ticket = tickets[args.id];
    if (!ticket) throw new Error(`No ticket ${args.id}`);
    return { content: [{ type: "text", text: JSON.stringify({ id: args.id, ...ticket }) }], details: ticket };
  },
};

const client = await RpcClient.start({
  cliPath: path.join(root, "dist/cli.js"),
  args: process.argv.length > 2 ? process.argv.slice(2) : offlineArgs(),
});
try {
  const { toolNames } = await client.setHostTools([lookupTicket]);
  console.log(`[host] registered ${toolNames.join(", ")}`);
  client.on("tool_execution_update", (f) => console.log(`[progress] ${JSON.stringify(f.partialResult.content)}`));
  client.on("tool_execution_end", (f) => console.log(`[tool result] ${f.toolName} isError=${f.isError}`));
  const messages = await client.promptAndWait("What is the status of ticket PITH-42?");
  const last = messages.filter((m) => m.role === "assistant").at(-1);
  if (last?.role === "assistant") console.log(last.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(""));
} finally {
  await client.close();
}
