// No user-supplied regular expression can hold the process, through the built CLI: a global and a
// project TTSR rule whose condition backtracks catastrophically (`^(a|aa)+$`) watch a reply of 70
// `a`s and a `!` (a backtracking engine takes hours on it); the run's prompt_result comes as fast
// as without the rules. A condition the linear-time engine cannot take is refused at load with
// a warning naming its file. SIGTERM during such a run ends pith within 2 s.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Pith, tempDir, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

const rule = (condition: string) => ["---", `condition: ${JSON.stringify(condition)}`, "---", "Never reply with a run of a's.", ""].join("\n");

function writeRule(dir: string, name: string, condition: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.md`);
  writeFileSync(file, rule(condition));
  return file;
}

async function start(withRules: boolean): Promise<Pith & { files: string[] }> {
  const pithHome = tempDir("pith-re-home-");
  const cwd = tempDir("pith-re-cwd-");
  const files: string[] = [];
  if (withRules) {
    files.push(writeRule(path.join(pithHome, "rules"), "global-catastrophe", "^(a|aa)+$"));
    // A project rule: the folder is trusted below (--trust-project), as a project layer only loads there.
    files.push(writeRule(path.join(cwd, ".pith", "rules"), "project-catastrophe", "^(a|aa)+$"));
    files.push(writeRule(path.join(cwd, ".pith", "rules"), "lookbehind", "(?<=a)b"));
  }
  const p = await Pith.start({ pithHome, cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt", "--trust-project"] });
  open.push(p);
  return Object.assign(p, { files });
}

const REPLY = `${"a".repeat(70)}!`;

/** Milliseconds from the prompt's response to its prompt_result (after a first run that loads what the rules need). */
async function timedRun(p: Pith): Promise<{ ms: number; result: Frame }> {
  llm.enqueue({ text: "warm" });
  await p.promptAndWait("warm up");
  llm.enqueue({ text: REPLY });
  const from = p.frames.length;
  const res = await p.request({ type: "prompt", message: "say a's" });
  expect(res.success).toBe(true);
  const t0 = performance.now();
  const result = await p.waitFor((f) => f.type === "prompt_result", 60_000, from);
  return { ms: performance.now() - t0, result };
}

describe("user regular expressions cannot hold the process", () => {
  it("a catastrophic global and project condition do not delay prompt_result; a lookbehind is refused at load, naming its file", async () => {
    const plain = await start(false);
    const baseline = await timedRun(plain);
    expect(await plain.close()).toBe(0);

    const p = await start(true);
    const watched = await timedRun(p);
    expect(watched.result).toMatchObject({ status: "completed" });
    process.stdout.write(`[rule-patterns] prompt_result after ${watched.ms.toFixed(0)} ms with the rules, ${baseline.ms.toFixed(0)} ms without\n`);
    expect(watched.ms - baseline.ms).toBeLessThan(1000);
    expect(p.stderr).toContain(p.files[2]);
    expect(p.stderr).toMatch(/lookaround.*linear-time regex engine/);
    expect(await p.close()).toBe(0);
  });

  it("SIGTERM during such a run ends pith in under 2 s", async () => {
    const p = await start(true);
    llm.enqueue({ text: REPLY, hang: true });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "say a's" });
    await p.waitFor((f) => f.type === "message_update" && JSON.stringify(f).includes("!"), 30_000, from);
    const t0 = performance.now();
    p.child.kill("SIGTERM");
    const exit = await p.exited;
    const ms = performance.now() - t0;
    process.stdout.write(`[rule-patterns] exited ${ms.toFixed(0)} ms after SIGTERM\n`);
    expect(exit.signal ?? exit.code).not.toBeNull();
    expect(ms).toBeLessThan(2000);
  });
});
