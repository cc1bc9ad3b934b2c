// Bytes each tool definition and the system prompt add to every request (issue 17): one prompt
// against the fake Anthropic endpoint, the first request's tools and system block measured.
// Usage: npm run build && node --import tsx bench/tool-sizes.ts [-- extra pith args]
import { startFakeLlmServer } from "../test/support/fake-llm-server.js";
import { pith, tempCwd } from "./lib/agents.js";
import { AgentProc } from "./lib/proc.js";
import { removeTemps } from "./lib/temp.js";

async function main(): Promise<void> {
  const llm = await startFakeLlmServer({ promptCache: true });
  const p = new AgentProc(pith.launch({ llmUrl: llm.url, cwd: tempCwd(), model: ["fake-anthropic", "fake-claude"], extraArgs: process.argv.slice(2) }));
  try {
    llm.enqueue({ text: "ok" });
    await p.promptAndWait("hi", 30_000);
    const body = llm.requests.find((r) => r.path.endsWith("/messages"))?.body as { tools?: Array<{ name: string }>; system?: unknown };
    const rows = (body.tools ?? []).map((t) => [t.name, JSON.stringify(t).length] as const);
    rows.push(["(system prompt)", JSON.stringify(body.system).length]);
    for (const [name, bytes] of rows) process.stdout.write(`${String(bytes).padStart(6)}  ${name}\n`);
    process.stdout.write(`${String(rows.reduce((a, r) => a + r[1], 0)).padStart(6)}  total\n`);
  } finally {
    await p.close();
    await llm.close();
    removeTemps();
  }
}
void main();
