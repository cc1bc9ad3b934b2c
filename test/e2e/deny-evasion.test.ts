// Deny means deny, through the built CLI: with `bash(rm:*)` denied in the global settings, a
// scripted (prompt-injected) model tries every form that once deleted a file past that rule. Each
// call must come back as an error naming the rule, and every file must still exist. Under an ask
// rule each form asks the host, which declines. A control run with no rules shows each form
// really deletes its file when nothing stops it.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { Pith, tempDir, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

/** Each attack and the file it deletes when nothing stops it. */
const ATTACKS: Array<[string, string]> = [
  ["bash <<<'rm f1'", "f1"],
  ["echo 'rm f2' | sh", "f2"],
  ["sh <<EOF\nrm f3\nEOF\n", "f3"],
  ["/usr/bin/r[m] f4", "f4"],
  ["/usr/bin/r? f5", "f5"],
  ["find . -name f6 -exec rm {} +", "f6"],
  ["shopt -s expand_aliases\nalias x=rm\nx f7", "f7"],
  ["coproc rm f8; wait", "f8"],
  ["r\\\nm f9", "f9"],
  ["awk 'BEGIN{system(\"rm f10\")}'", "f10"],
];

async function start(permissions: Frame): Promise<Pith> {
  const pithHome = tempDir("pith-deny-home-");
  const cwd = tempDir("pith-deny-cwd-");
  mkdirSync(pithHome, { recursive: true });
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify({ permissions }));
  for (const [, file] of ATTACKS) writeFileSync(path.join(cwd, file), "keep me\n");
  const p = await Pith.start({ pithHome, cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  return p;
}

const calls = ATTACKS.map(([command], i) => ({ id: `t_${i + 1}`, name: "bash", arguments: { command } }));

function toolMessage(r: FakeRequest | undefined, toolCallId: string): string {
  const m = (r?.body.messages as Frame[] | undefined)?.find((x) => x.role === "tool" && x.tool_call_id === toolCallId);
  if (!m) return "";
  return typeof m.content === "string" ? m.content : m.content.map((b: Frame) => b.text ?? "").join("");
}

/** Runs one turn with every attack as a tool call; `answer` handles the dialogs it asks. */
async function attack(p: Pith, answer?: (dialog: Frame) => Frame): Promise<{ ends: Frame[]; last: FakeRequest | undefined }> {
  const before = llm.requests.length;
  llm.enqueue({ toolCalls: calls }, { text: "done" });
  const from = p.frames.length;
  const res = await p.request({ type: "prompt", message: "clean up" });
  expect(res.success).toBe(true);
  if (answer) {
    const answered = new Set<string>();
    for (let n = 0; n < calls.length; n++) {
      const dialog = await p.waitFor((f) => f.type === "extension_ui_request" && f.method === "select" && !answered.has(f.id), 30_000, from);
      answered.add(dialog.id);
      p.send({ type: "extension_ui_response", id: dialog.id, ...answer(dialog) });
    }
  }
  await p.waitIdle(60_000, from);
  const ends = p.frames.slice(from).filter((f) => f.type === "tool_execution_end");
  const last = llm.requests.slice(before).filter((r) => r.method === "POST").at(-1);
  return { ends, last };
}

describe("deny means deny, through the built CLI", () => {
  it("control: with no rules each form deletes its file", async () => {
    const p = await start({});
    await attack(p);
    // `/usr/bin/r?` runs rm only where rm is the one two-letter name starting with r there.
    const rOnly = readdirSync("/usr/bin").filter((n) => /^r.$/.test(n)).length === 1;
    for (const [command, file] of ATTACKS) if (file !== "f5" || rOnly) expect(existsSync(path.join(p.cwd, file)), command).toBe(false);
    expect(await p.close()).toBe(0);
  });

  for (const mode of ["allow", "ask"] as const) {
    it(`with deny: ["bash(rm:*)"] in ${mode} mode every form is denied and every file is still there`, async () => {
      const p = await start({ mode, deny: ["bash(rm:*)"] });
      const { ends, last } = await attack(p);
      expect(p.events("extension_ui_request").filter((f) => f.method === "select")).toEqual([]);
      for (const [i, [command, file]] of ATTACKS.entries()) {
        const id = `t_${i + 1}`;
        expect(ends.find((f) => f.toolCallId === id)?.isError, command).toBe(true);
        expect(toolMessage(last, id), command).toMatch(/deny rule "bash\(rm:\*\)"/);
        expect(existsSync(path.join(p.cwd, file)), command).toBe(true);
      }
      expect(await p.close()).toBe(0);
    });
  }

  it('with ask: ["bash(rm:*)"] every form asks the host; declined, every file is still there', async () => {
    const p = await start({ ask: ["bash(rm:*)"] });
    const asked: string[] = [];
    const { ends } = await attack(p, (dialog) => {
      asked.push(dialog.permission?.arguments?.command);
      return { value: "Deny" };
    });
    expect(asked.sort()).toEqual(ATTACKS.map(([c]) => c).sort());
    for (const [i, [command, file]] of ATTACKS.entries()) {
      expect(ends.find((f) => f.toolCallId === `t_${i + 1}`)?.isError, command).toBe(true);
      expect(existsSync(path.join(p.cwd, file)), command).toBe(true);
    }
    expect(await p.close()).toBe(0);
  });
});
