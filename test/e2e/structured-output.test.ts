// Structured results end to end: a prompt with outputSchema offers submit_result,
// a wrong-typed call gets a tool error naming the field, a valid one ends the run, the result
// reaches prompt_result.output; {error}, reminders, refused schemas and print mode.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { CLI, Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";
import { spawn } from "node:child_process";

const llm = useFakeLlm();
const open = trackPiths();

const SCHEMA = {
  type: "object",
  properties: { name: { type: "string" }, count: { type: "integer", minimum: 0 } },
  required: ["name", "count"],
  additionalProperties: false,
};

async function start(extra: string[] = []): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt", ...extra] });
  open.push(p);
  return p;
}

const modelCalls = (from: number): FakeRequest[] => llm.requests.slice(from).filter((r) => r.method === "POST");
const body = (r: FakeRequest) => r.body as { messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }>; tool_choice?: unknown };
const submit = (id: string, result: unknown) => ({ toolCalls: [{ id, name: "submit_result", arguments: { result } }] });

async function promptResult(p: Pith, id: string, from: number): Promise<Frame> {
  return p.waitFor((f) => f.type === "prompt_result" && f.id === id, 30_000, from);
}

describe("outputSchema", () => {
  it("a wrong-typed submit gets a tool error naming the field; the valid one ends the run and is prompt_result.output", async () => {
    const p = await start();
    const from = llm.requests.length;
    const frames0 = p.frames.length;
    llm.enqueue(submit("c1", { data: { name: "x", count: "three" } }), submit("c2", { data: { name: "x", count: 3 } }));
    const res = await p.request({ id: "s1", type: "prompt", message: "count things", outputSchema: SCHEMA });
    expect(res.success).toBe(true);
    const result = await promptResult(p, "s1", frames0);
    expect(result).toMatchObject({ status: "completed", agentInvoked: true, output: { name: "x", count: 3 } });
    const calls = modelCalls(from);
    expect(calls).toHaveLength(2);
    // the first request offered submit_result and told the model to finish with it
    expect(body(calls[0]!).tools?.map((t) => t.function.name)).toContain("submit_result");
    expect(JSON.stringify(body(calls[0]!).messages)).toContain("MUST call the submit_result tool");
    // the wrong type came back as a tool error naming the field
    const toolMsg = body(calls[1]!).messages.find((m) => m.role === "tool");
    expect(JSON.stringify(toolMsg)).toContain("result.data.count: must be integer");
    // the session file records the structured result; get_last_assistant_text still answers
    const state = await p.request({ type: "get_state" });
    const text = readFileSync(state.data.sessionFile, "utf8");
    expect(text).toContain('"customType":"structured_result"');
    expect((await p.request({ type: "get_last_assistant_text" })).success).toBe(true);
  });

  it("{error} ends the run as a failure the model reports", async () => {
    const p = await start();
    const frames0 = p.frames.length;
    const from = llm.requests.length;
    llm.enqueue(submit("c1", { error: "the repository has no tests" }));
    await p.request({ id: "e1", type: "prompt", message: "count tests", outputSchema: SCHEMA });
    const result = await promptResult(p, "e1", frames0);
    expect(result).toMatchObject({ status: "error", error: { message: "the repository has no tests", retryable: false } });
    expect(result.output).toBeUndefined();
    expect(modelCalls(from)).toHaveLength(1);
  });

  it("a model that only writes text gets 3 reminders, each forcing submit_result, then a clear error", async () => {
    const p = await start();
    const frames0 = p.frames.length;
    const from = llm.requests.length;
    llm.enqueue({ text: "it is 3" }, { text: "3" }, { text: "three" }, { text: "really 3" });
    await p.request({ id: "r1", type: "prompt", message: "count", outputSchema: SCHEMA });
    const result = await promptResult(p, "r1", frames0);
    expect(result.status).toBe("error");
    expect(result.error.message).toContain("did not call submit_result with a valid result after 3 reminders");
    const calls = modelCalls(from);
    expect(calls).toHaveLength(4);
    for (const [i, c] of calls.slice(1).entries()) {
      expect(JSON.stringify(body(c).messages)).toContain(`This is reminder ${i + 1} of 3`);
      expect(body(c).tool_choice).toEqual({ type: "function", function: { name: "submit_result" } });
    }
  });

  it("refuses an invalid or oversized schema before anything runs; without a schema nothing changes", async () => {
    const p = await start();
    const from = llm.requests.length;
    const bad = await p.request({ id: "b1", type: "prompt", message: "x", outputSchema: { type: "strin" } });
    expect(bad).toMatchObject({ success: false, command: "prompt" });
    expect(bad.error).toContain("outputSchema is not a valid JSON Schema");
    const big = await p.request({ id: "b2", type: "prompt", message: "x", outputSchema: { type: "object", description: "x".repeat(70_000) } });
    expect(big.error).toContain("outputSchema is too large");
    const notObject = await p.request({ id: "b3", type: "follow_up", message: "x", outputSchema: "string" });
    expect(notObject.error).toBe("outputSchema must be a JSON Schema object");
    expect(modelCalls(from)).toHaveLength(0);
    llm.enqueue({ text: "plain" });
    await p.promptAndWait("no schema");
    const plain = body(modelCalls(from)[0]!);
    expect(plain.tools?.map((t) => t.function.name) ?? []).not.toContain("submit_result");
    expect(JSON.stringify(plain.messages)).not.toContain("submit_result");
  });

  it("a follow_up with outputSchema makes the run that takes it structured", async () => {
    const p = await start();
    const frames0 = p.frames.length;
    llm.enqueue({ text: "first", delayMs: 300 }, submit("f1", { data: { name: "later", count: 1 } }));
    await p.request({ id: "a", type: "prompt", message: "first" });
    await p.request({ id: "b", type: "follow_up", message: "then count", outputSchema: SCHEMA });
    const a = await promptResult(p, "a", frames0);
    const b = await promptResult(p, "b", frames0);
    // the follow-up joined the first prompt's run: both messages share that run's outcome
    expect(a.status).toBe("completed");
    expect(b).toMatchObject({ status: "completed", output: { name: "later", count: 1 } });
  });
});

/** Runs the CLI without blocking this process (the fake server answers from it). */
function run(args: string[], env: Record<string, string>, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("print mode --output-schema", () => {
  it("prints only the validated JSON and exits 0; exits non-zero with the error on stderr otherwise", async () => {
    const home = tempDir("pith-so-home-");
    writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
    const schemaFile = path.join(home, "schema.json");
    writeFileSync(schemaFile, JSON.stringify(SCHEMA));
    const env = { PATH: process.env.PATH ?? "", HOME: home, PITH_HOME: home };
    const args = [CLI, "-p", "--no-session", "--provider", "fake-openai", "--model", "fake-gpt", "--output-schema", schemaFile, "count"];
    llm.enqueue(submit("p1", { data: { name: "n", count: 2 } }));
    const ok = await run(args, env, home);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ name: "n", count: 2 });
    expect(ok.stdout.trim()).toBe(JSON.stringify({ name: "n", count: 2 }));
    llm.enqueue(submit("p2", { error: "cannot count" }));
    const failed = await run(args, env, home);
    expect(failed.status).not.toBe(0);
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toContain("cannot count");
    writeFileSync(schemaFile, "{not json");
    const badFile = await run(args, env, home);
    expect(badFile.status).not.toBe(0);
    expect(badFile.stderr).toContain("--output-schema");
  });
});
