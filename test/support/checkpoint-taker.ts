// A stand-in pith process for the checkpoint concurrency test: opens a store on <home> <cwd>
// and takes <count> checkpoints as session <sessionId>, printing one JSON line per checkpoint.
// Usage: node --import tsx test/support/checkpoint-taker.ts <home> <cwd> <sessionId> <count>
import { openCheckpointStore, probeGit } from "../../src/checkpoints/index.js";

const [home, cwd, sessionId, count] = process.argv.slice(2);
const probe = await probeGit({ pathEnv: process.env.PATH });
if (!probe.available) throw new Error(probe.reason);
const store = openCheckpointStore({ home, cwd, gitPath: probe.gitPath, pathEnv: process.env.PATH });
for (let i = 0; i < Number(count); i++) {
  const cp = await store.take({ sessionId, kind: "prompt" });
  process.stdout.write(JSON.stringify(cp) + "\n");
}
await store.idle();
