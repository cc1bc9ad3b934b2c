/**
 * ui-handler: answer extension dialogs (select / confirm / input / editor) from the host.
 *
 *   npm run build
 *   npx tsx examples/hosts/ui-handler.ts [pith args...]
 *
 * Loads examples/extensions/ask-user.ts, whose `deploy_check` tool asks three questions.
 * On a terminal you answer them; otherwise (CI, pipes) the handler answers automatically.
 * Returning `undefined` answers `{cancelled: true}`; `signal` fires when pith cancels the dialog
 * (timeout or abort) so the host can close it. Fire-and-forget requests (notify, setStatus, …)
 * arrive as `extension_ui_request` events.
 *
 * Without pith args it runs offline: a scripted model calls `deploy_check`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";
import { RpcClient, type UiAnswer, type UiDialogRequest } from "../../src/client/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const interactive = process.stdin.isTTY === true;

function offlineArgs(): string[] {
  const script = path.join(mkdtempSync(path.join(tmpdir(), "pith-ui-")), "script.json");
  writeFileSync(script, JSON.stringify({
    replies: [{ toolCalls: [{ name: "deploy_check", arguments: { service: "billing" } }] }, { text: "The deploy check is done." }],
  }));
  return ["--provider", "scripted", "--model", script, "--no-session"];
}

async function ask(question: string, signal: AbortSignal): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(`${question} `, { signal });
  } finally {
    rl.close();
  }
}

async function answer(req: UiDialogRequest, { signal }: { signal: AbortSignal }): Promise<UiAnswer | undefined> {
  switch (req.method) {
    case "confirm":
      if (!interactive) return { confirmed: true };
      return { confirmed: /^y/i.test(await ask(`${req.title}: ${req.message} [y/N]`, signal)) };
    case "select": {
      if (!interactive) return { value: req.options[0] };
      const pick = Number(await ask(`${req.title}: ${req.options.map((o, i) => `${i + 1}) ${o}`).join("  ")} ?`, signal));
      return req.options[pick - 1] === undefined ? undefined : { value: req.options[pick - 1] };
    }
    case "input":
    case "editor":
      return { value: interactive ? await ask(`${req.title}:`, signal) : "automated answer" };
  }
}

const client = await RpcClient.start({
  cliPath: path.join(root, "dist/cli.js"),
  args: [...(process.argv.length > 2 ? process.argv.slice(2) : offlineArgs()), "-e", path.join(root, "examples/extensions/ask-user.ts")],
});
try {
  client.onUiRequest(async (req, ctx) => {
    const reply = await answer(req, ctx);
    console.log(`[dialog] ${req.method} "${req.title}" → ${JSON.stringify(reply ?? { cancelled: true })}`);
    return reply;
  });
  client.on("extension_ui_request", (f) => {
    if (f.method === "notify") console.log(`[notify] ${f.message}`);
  });
  client.on("tool_execution_end", (f) => console.log(`[tool] ${f.toolName}: ${JSON.stringify(f.result.content)}`));
  await client.promptAndWait("Run the deploy check for the billing service.");
} finally {
  await client.close();
}
