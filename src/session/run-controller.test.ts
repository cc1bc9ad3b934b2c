// The run controller alone: busy from the first moment, continuations as separate runs, abort
// reaching the running run and killing scheduled continuations, idle waiters.
import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage } from "../shared/types.js";
import { emptyAssistantMessage } from "../shared/types.js";
import { RunController, type Continuation } from "./run-controller.js";

const reply = (stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage =>
  emptyAssistantMessage({ api: "x", provider: "x", id: "m" }, 1, stopReason);
const prompt = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });

function controller(decide: (runIndex: number) => Continuation, runTicks = 0) {
  const runs: { prompts: AgentMessage[]; signal: AbortSignal }[] = [];
  const errors: string[] = [];
  const rc = new RunController({
    async runLoop(prompts, signal) {
      runs.push({ prompts, signal });
      for (let i = 0; i < runTicks && !signal.aborted; i++) await new Promise((r) => setTimeout(r, 1));
      return [reply(signal.aborted ? "aborted" : "stop")];
    },
    afterRun: async () => decide(runs.length - 1),
    onInternalError: (m) => errors.push(m),
  });
  return { rc, runs, errors };
}

describe("RunController", () => {
  it("is busy from start() until every continuation has settled", async () => {
    const { rc, runs } = controller((i) => (i < 2 ? { kind: "continue", prompts: [prompt(`c${i}`)] } : { kind: "stop" }));
    const done = rc.start(async () => [prompt("p")]);
    expect(rc.isBusy).toBe(true);
    await done;
    expect(rc.isBusy).toBe(false);
    expect(runs.map((r) => JSON.stringify(r.prompts))).toEqual([JSON.stringify([prompt("p")]), JSON.stringify([prompt("c0")]), JSON.stringify([prompt("c1")])]);
    // each continuation got its own signal
    expect(new Set(runs.map((r) => r.signal)).size).toBe(3);
  });

  it("abort reaches the running run, cancels the scheduled continuation and resolves once idle", async () => {
    const { rc, runs } = controller(() => ({ kind: "continue", prompts: [] }), 50);
    const done = rc.start(async () => []);
    await new Promise((r) => setTimeout(r, 5));
    await rc.abort();
    await done;
    expect(rc.isBusy).toBe(false);
    expect(runs).toHaveLength(1);
    expect(runs[0].signal.aborted).toBe(true);
  });

  it("a failing pre-flight rejects start() and leaves the controller idle", async () => {
    const { rc, runs } = controller(() => ({ kind: "stop" }));
    await expect(rc.start(async () => Promise.reject(new Error("no model")))).rejects.toThrow("no model");
    expect(rc.isBusy).toBe(false);
    expect(runs).toHaveLength(0);
  });

  it("a throwing hook is reported, never thrown at the caller", async () => {
    const errors: string[] = [];
    const rc = new RunController({
      runLoop: async () => [reply()],
      afterRun: async () => {
        throw new Error("boom");
      },
      onInternalError: (m) => errors.push(m),
    });
    await rc.start(async () => []);
    expect(errors).toEqual(["boom"]);
  });

  it("busy() counts work without a run, and whenIdle waits for all of it", async () => {
    const { rc } = controller(() => ({ kind: "stop" }));
    let release!: () => void;
    const work = rc.busy(() => new Promise<string>((r) => (release = () => r("done"))));
    expect(rc.isBusy).toBe(true);
    let idle = false;
    void rc.whenIdle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    release();
    expect(await work).toBe("done");
    await rc.whenIdle();
    expect(idle).toBe(true);
  });
});
