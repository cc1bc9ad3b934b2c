/**
 * minimal-host: spawn pith, send one prompt, print the streamed text.
 *
 *   npm run build
 *   npx tsx examples/hosts/minimal-host.ts "What is in this directory?" [pith args...]
 *
 * Without pith args it runs offline with the scripted provider
 * (examples/scripted/tool-then-answer.json). With a real provider, e.g.:
 *   npx tsx examples/hosts/minimal-host.ts "Summarise README.md" --provider anthropic --model claude-sonnet-4-5
 *
 * Outside this repository import from the package instead: `import { RpcClient } from "pith/client";`
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient } from "../../src/client/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const message = process.argv[2] ?? "What is in this directory?";
const pithArgs = process.argv.length > 3
  ? process.argv.slice(3)
  : ["--provider", "scripted", "--model", path.join(root, "examples/scripted/tool-then-answer.json"), "--no-session"];

const client = await RpcClient.start({ cliPath: path.join(root, "dist/cli.js"), args: pithArgs });
try {
  client.on("message_update", (frame) => {
    const event = frame.assistantMessageEvent;
    if (event.type === "text_delta") process.stdout.write(event.delta);
  });
  client.on("message_end", (frame) => {
    if (frame.message.role === "assistant") process.stdout.write("\n");
  });
  client.on("tool_execution_start", (frame) => process.stdout.write(`[tool] ${frame.toolName} ${JSON.stringify(frame.args)}\n`));
  const messages = await client.promptAndWait(message);
  process.stdout.write(`[done] ${messages.length} messages\n`);
} finally {
  await client.close();
}
