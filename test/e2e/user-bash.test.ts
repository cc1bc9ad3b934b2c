// The host's own shell commands: `bash` / `abort_bash`.
// abort_bash is a control command: it must reach a running `bash` instead of waiting behind it.
import { describe, expect, it } from "vitest";
import { type FakeRequest } from "../support/fake-llm-server.js";
import { Pith, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";
import { descendants, goneWithin } from "./storm-checks.js";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";

const llm = useFakeLlm();
const open = trackPiths();

async function start(): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  return p;
}

const chatRequests = (from: number) => llm.requests.slice(from).filter((r) => r.path.endsWith("/chat/completions"));
const bodyText = (r: FakeRequest) => JSON.stringify(r.body);
const userTexts = (r: FakeRequest): string[] =>
  (r.body.messages as Frame[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((b: Frame) => b.text ?? "").join("")));

/** Polls /proc until a process of pith's runs `cmd` (the command has really started). */
async function waitForProcess(p: Pith, cmd: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (descendants(p.child.pid!).some((d) => d.cmd.includes(cmd))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no process runs ${cmd}`);
}

describe("bash", () => {
  it("runs a command and answers a BashResult", async () => {
    const p = await start();
    const res = await p.request({ id: "b1", type: "bash", command: "echo hello && false" });
    expect(res).toMatchObject({ id: "b1", type: "response", command: "bash", success: true });
    expect(res.data).toMatchObject({ output: "hello\n", exitCode: 1, cancelled: false, truncated: false });
    // The trailing newline is kept and lines count as split("\n") does.
    expect(res.data).toMatchObject({ totalLines: 2, totalBytes: 6, outputLines: 2, outputBytes: 6 });
    expect(p.events("message_start")).toHaveLength(0); // no event for the bashExecution message
  });

  it("abort_bash reaches a running `sleep 30`: bash answers cancelled within a second", async () => {
    const p = await start();
    const from = p.frames.length;
    p.send({ id: "long", type: "bash", command: "sleep 30" });
    // get_state is answered while bash runs (no head-of-line blocking).
    const state = await p.request({ type: "get_state" }, 5000);
    expect(state.success).toBe(true);
    const t0 = Date.now();
    const abortRes = await p.request({ type: "abort_bash" }, 5000);
    expect(abortRes.success).toBe(true);
    const res = await p.waitFor((f) => f.type === "response" && f.id === "long", 5000, from);
    const elapsed = Date.now() - t0;
    expect(res.success).toBe(true);
    expect(res.data.cancelled).toBe(true);
    expect(res.data.exitCode).toBeUndefined();
    expect(res.data.output).toContain("[Command cancelled]");
    // sleep 30 would take 30 s if abort_bash waited behind bash.
    expect(elapsed).toBeLessThan(1000);
    // The process is usable afterwards.
    const again = await p.request({ type: "bash", command: "echo after" });
    expect(again.data.output).toBe("after\n");
  });

  it("abort_bash also cancels the bash commands accepted before it that wait their turn: they never start, and nothing waits behind them", async () => {
    const p = await start();
    const from = p.frames.length;
    p.send({ id: "first", type: "bash", command: "sleep 30" });
    p.send({ id: "second", type: "bash", command: "touch second-started; sleep 30" });
    p.send({ id: "behind", type: "get_messages" });
    await waitForProcess(p, "sleep 30");
    expect((await p.request({ type: "abort_bash" }, 5000)).success).toBe(true);
    const answer = (id: string) => p.waitFor((f) => f.type === "response" && f.id === id, 10_000, from);
    const [first, second, behind] = await Promise.all([answer("first"), answer("second"), answer("behind")]);
    expect(first.data).toMatchObject({ cancelled: true, output: "[Command cancelled]\n" });
    expect(second.data).toMatchObject({ cancelled: true, output: "[Command cancelled]\n" });
    expect(behind.success).toBe(true);
    expect(existsSync(path.join(p.cwd, "second-started"))).toBe(false);
    // the record of the command that ran is kept; the one that never started is not
    expect((behind.data.messages as Frame[]).map((m) => m.command)).toEqual(["sleep 30"]);
    expect(descendants(p.child.pid!)).toEqual([]);
    // a command sent after abort_bash runs as usual
    expect((await p.request({ type: "bash", command: "echo later" })).data.output).toBe("later\n");
  });

  it("a background job the command leaves behind ends with it (its process group is ended after the answer)", async () => {
    const p = await start();
    const res = await p.request({ type: "bash", command: "sleep 30 & echo $!" });
    const background = Number(res.data.output.trim());
    expect(background).toBeGreaterThan(0);
    expect(await goneWithin(background, 1000)).toBe(true);
    expect(descendants(p.child.pid!)).toEqual([]);
  });

  it("sanitises output (ANSI stripped, CR normalised) and keeps only the 51 200-byte tail", async () => {
    const p = await start();
    const color = await p.request({ type: "bash", command: "printf '\\033[31mred\\033[0m\\r\\nline2\\r\\n'" });
    expect(color.data.output).toBe("red\nline2\n");
    const big = await p.request({ type: "bash", command: "seq 1 30000" });
    expect(big.data.truncated).toBe(true);
    expect(big.data.totalLines).toBe(30001);
    expect(big.data.totalBytes).toBe(168894);
    expect(big.data.outputBytes).toBeLessThanOrEqual(51_200);
    expect(big.data.output.endsWith("29999\n30000\n")).toBe(true);
    expect(big.data.output).not.toContain("\n1000\n");
  });

  it("keeps a persistent shell: cd and exported variables carry over; newCwd is reported", async () => {
    const p = await start();
    mkdirSync(path.join(p.cwd, "sub dir"));
    const first = await p.request({ type: "bash", command: "cd 'sub dir' && export PITH_E2E_VAR=kept" });
    expect(first.data.exitCode).toBe(0);
    expect(first.data.newCwd).toBe(realpathSync(path.join(p.cwd, "sub dir")));
    const second = await p.request({ type: "bash", command: 'echo "$(basename "$PWD") $PITH_E2E_VAR"' });
    expect(second.data.output).toBe("sub dir kept\n");
    // A failing command keeps its exit code and still leaves the state behind.
    const third = await p.request({ type: "bash", command: "cd .. && (exit 3)" });
    expect(third.data.exitCode).toBe(3);
    expect(third.data.newCwd).toBe(realpathSync(p.cwd));
  });

  it("the agent's abort does not cancel a user bash command", async () => {
    const p = await start();
    const from = p.frames.length;
    p.send({ id: "keep", type: "bash", command: "sleep 0.3; echo survived" });
    expect((await p.request({ type: "abort" }, 5000)).success).toBe(true);
    const res = await p.waitFor((f) => f.type === "response" && f.id === "keep", 10_000, from);
    expect(res.data).toMatchObject({ output: "survived\n", exitCode: 0, cancelled: false });
  });

  it("abort_bash while idle is a no-op success", async () => {
    const p = await start();
    expect(await p.request({ id: "ab", type: "abort_bash" })).toEqual({ type: "response", id: "ab", command: "abort_bash", success: true });
  });

  it("records the output so the next prompt's request contains it", async () => {
    const p = await start();
    const res = await p.request({ type: "bash", command: "echo marker-$((40+2))" });
    expect(res.data.output).toBe("marker-42\n");
    const before = llm.requests.length;
    llm.enqueue({ text: "seen" });
    await p.promptAndWait("what did I run?");
    const req = chatRequests(before)[0];
    const users = userTexts(req).join("\n");
    expect(users).toContain("Ran `echo marker-$((40+2))`");
    expect(users).toContain("marker-42");
    expect(users.indexOf("marker-42")).toBeLessThan(users.indexOf("what did I run?"));
    const msgs = (await p.request({ type: "get_messages" })).data.messages;
    expect(msgs.map((m: Frame) => m.role)).toEqual(["bashExecution", "user", "assistant"]);
  });

  it("a bash run during an agent run is held back until the next prompt (tool pairing intact)", async () => {
    const p = await start();
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [{ id: "call_w", name: "bash", arguments: { command: "while [ ! -f go ]; do sleep 0.02; done; echo gate" } }] }, { text: "first done" });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "run the gate" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    const res = await p.request({ type: "bash", command: "echo during-run-xyz" }, 10_000);
    expect(res.data.output).toBe("during-run-xyz\n");
    writeFileSync(path.join(p.cwd, "go"), "");
    await p.waitIdle(15_000, from);
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(2);
    expect(bodyText(reqs[1])).not.toContain("during-run-xyz");
    llm.enqueue({ text: "second done" });
    await p.promptAndWait("next");
    const third = chatRequests(before)[2];
    expect(bodyText(third)).toContain("during-run-xyz");
    const roles = (third.body.messages as Frame[]).map((m) => m.role);
    // assistant(tool call) → tool → assistant, then the bash record merged into the next user turn
    expect(roles.slice(-5)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
  });
});
