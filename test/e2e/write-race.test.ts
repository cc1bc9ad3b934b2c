// No check-then-write window, through the built CLI under `--sandbox workspace-write`: two
// subagents of one session race. One swaps a folder of the cwd for a symbolic link to a folder
// outside the cwd in a tight loop; the other writes 2,000 files into that folder with the write
// tool. Not one file may land outside the cwd. Skipped, with the reason printed, when bubblewrap
// cannot run here.
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/index.js";
import { Pith, tempDir, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";
import { forParent, forSub, taskCall } from "./task-replies.js";

const llm = useFakeLlm();
const open = trackPiths();

const probe = await probeSandbox();
if (!probe.ok) process.stdout.write(`[write-race e2e] skipped: bubblewrap cannot run here: ${probe.error}\n`);

const FILES = 2000;
const PER_TURN = 250;

describe.skipIf(!probe.ok)("write race: a folder swapped for a link while a subagent writes into it", () => {
  it("lands 0 of 2,000 writes outside the cwd", async () => {
    const cwd = tempDir("pith-race-cwd-");
    const outside = tempDir("pith-race-outside-");
    mkdirSync(path.join(cwd, "d"));
    const p = await Pith.start({ cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "fake-claude", "--sandbox", "workspace-write"] });
    open.push(p);
    // The swapper stops when the writer leaves done.flag (or after two minutes).
    const swap = `end=$((SECONDS+120)); n=0; while [ ! -e done.flag ] && [ $SECONDS -lt $end ]; do mv d d.real 2>/dev/null; ln -sfn ${JSON.stringify(outside)} d; rm -f d; mv d.real d 2>/dev/null; n=$((n+1)); done; echo "swapped $n times"`;
    const P = "race the writes";
    const writes = Array.from({ length: FILES }, (_, i) => ({ id: `w${i}`, name: "write", arguments: { path: `d/f${i}.txt`, content: `file ${i}\n` } }));
    const turns = Array.from({ length: FILES / PER_TURN }, (_, k) => forSub("ASSIGN-WRITE", { toolCalls: writes.slice(k * PER_TURN, (k + 1) * PER_TURN) }));
    llm.enqueue(
      forParent(P, taskCall("race", "task", [["swap", "ASSIGN-SWAP"], ["write", "ASSIGN-WRITE"]])),
      forSub("ASSIGN-SWAP", { toolCalls: [{ id: "loop", name: "bash", arguments: { command: swap, timeout: 150 } }] }),
      forSub("ASSIGN-SWAP", { text: "swapped" }),
      ...turns,
      forSub("ASSIGN-WRITE", { toolCalls: [{ id: "flag", name: "bash", arguments: { command: "touch done.flag" } }] }),
      forSub("ASSIGN-WRITE", { text: "written" }),
      forParent(P, { text: "both done" }),
    );
    const frames = await p.promptAndWait(P, {}, 300_000);
    const ends = frames.filter((f: Frame) => f.type === "tool_execution_end" && typeof f.toolCallId === "string");
    expect(ends.find((f: Frame) => f.toolCallId === "race")?.isError).toBe(false);
    const landed = readdirSync(path.join(existsSync(path.join(cwd, "d.real")) ? path.join(cwd, "d.real") : path.join(cwd, "d")));
    process.stdout.write(`[write-race e2e] ${landed.length} of ${FILES} writes landed inside, 0 expected outside\n`);
    expect(readdirSync(outside)).toEqual([]);
    expect(landed.length).toBeGreaterThan(0);
    expect(await p.close()).toBe(0);
  }, 360_000);
});
