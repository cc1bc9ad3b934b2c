// Print mode (`-p`) and JSON mode (`--mode json`) end to end: the built CLI is
// spawned directly against the fake LLM server; stdout, stderr, exit code and the requests the
// fake received are checked.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm, type FakeRequest } from "../support/fake-llm-server.js";
import { CLI, fakeModelsJson, tempDir } from "./harness.js";

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await llm.close();
});

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  home: string;
  cwd: string;
}

/** Runs `node dist/cli.js ...args` to completion; stdin gets `stdin` (or nothing) then EOF. */
function runCli(args: string[], opts: { stdin?: string; models?: boolean; settings?: unknown } = {}): Promise<CliRun> {
  const home = tempDir("pith-home-");
  const cwd = tempDir("pith-cwd-");
  if (opts.models !== false) writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
  if (opts.settings) writeFileSync(path.join(home, "settings.json"), JSON.stringify(opts.settings));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home };
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: "pipe" });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => err.push(c));
  child.stdin.end(opts.stdin ?? "");
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), home, cwd });
    });
  });
}

const MODEL = ["--provider", "fake-openai", "--model", "fake-gpt"];
const calls = () => llm.requests.filter((r) => r.method === "POST");
/** The text of the last user message of a chat-completions request. */
function lastUserText(r: FakeRequest): string {
  const msgs = r.body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  const user = msgs.filter((m) => m.role === "user").at(-1)!;
  return typeof user.content === "string" ? user.content : user.content.map((c) => c.text ?? "").join("");
}
function sessionFiles(home: string): string[] {
  const root = path.join(home, "sessions");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(root, f));
}

describe("print mode (-p)", () => {
  it("prints the final text on stdout and exits 0; the session is saved", async () => {
    const before = calls().length;
    llm.enqueue({ text: ["Hel", "lo ", "there"] });
    const run = await runCli(["-p", "Say hi", ...MODEL]);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello there\n");
    expect(calls().length - before).toBe(1);
    expect(lastUserText(calls()[before])).toBe("Say hi");
    const files = sessionFiles(run.home);
    expect(files).toHaveLength(1);
    const lines = readFileSync(files[0], "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0].type).toBe("session");
    expect(lines.filter((e) => e.type === "message").map((e) => e.message.role)).toEqual(["user", "assistant"]);
  });

  it("--no-session writes no session file", async () => {
    llm.enqueue({ text: "ephemeral" });
    const run = await runCli(["-p", "hi", "--no-session", ...MODEL]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("ephemeral\n");
    expect(sessionFiles(run.home)).toEqual([]);
  });

  it("a provider 400 goes to stderr with exit 1 and nothing on stdout", async () => {
    const before = calls().length;
    llm.enqueue({ error: { status: 400, body: { error: { message: "bad request from fake" } } } });
    const run = await runCli(["-p", "fail please", ...MODEL]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("bad request from fake");
    // A 400 is not retryable: one request only.
    expect(calls().length - before).toBe(1);
  });

  it("piped stdin is prepended to the first message", async () => {
    const before = calls().length;
    llm.enqueue({ text: "summary" });
    const run = await runCli(["-p", "Summarise the above", ...MODEL], { stdin: "line one\nline two\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("summary\n");
    expect(lastUserText(calls()[before])).toBe("line one\nline two\nSummarise the above");
  });

  it("piped stdin alone (no -p, no message) runs print mode with it as the prompt", async () => {
    const before = calls().length;
    llm.enqueue({ text: "from stdin" });
    const run = await runCli([...MODEL], { stdin: "What is 2+2\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("from stdin\n");
    expect(lastUserText(calls()[before])).toBe("What is 2+2");
  });

  it("several messages run as sequential prompts; only the last answer is printed", async () => {
    const before = calls().length;
    llm.enqueue({ text: "first answer" }, { text: "second answer" });
    const run = await runCli(["-p", "first question", "second question", ...MODEL]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("second answer\n");
    expect(calls().length - before).toBe(2);
    const second = JSON.stringify(calls()[before + 1].body);
    expect(lastUserText(calls()[before + 1])).toBe("second question");
    expect(second).toContain("first answer");
  });

  it("with no model configured: a clear message on stderr, exit 1", async () => {
    const run = await runCli(["-p", "hi"], { models: false });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("No models available");
  });
});

describe("json mode (--mode json)", () => {
  it("prints the session header, then every event as one JSON line; exit 0", async () => {
    llm.enqueue({ text: ["Hi ", "json"] });
    const run = await runCli(["--mode", "json", "Say hi", ...MODEL]);
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith("\n")).toBe(true);
    const lines = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", version: expect.any(Number), id: expect.any(String), timestamp: expect.any(String), cwd: run.cwd });
    const types = lines.slice(1).map((e) => e.type);
    expect(types[0]).toBe("agent_start");
    // pi 0.87 writes agent_settled after the run; pith also writes oh-my-pi's session_settled.
    expect(types.slice(-3)).toEqual(["agent_end", "session_settled", "agent_settled"]);
    for (const t of ["turn_start", "message_start", "message_update", "message_end", "turn_end"]) expect(types).toContain(t);
    const end = lines.find((e) => e.type === "message_end" && e.message.role === "assistant");
    expect(end.message.content).toEqual([{ type: "text", text: "Hi json" }]);
    // The header is the session file's first line.
    const files = sessionFiles(run.home);
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(files[0], "utf8").split("\n")[0])).toEqual(lines[0]);
  });

  it("an error reply is just an event: exit 0, the error is in the message_end", async () => {
    llm.enqueue({ error: { status: 400, body: { error: { message: "json-mode bad request" } } } });
    const run = await runCli(["--mode", "json", "fail", ...MODEL]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const end = lines.find((e) => e.type === "message_end" && e.message.role === "assistant");
    expect(end.message.stopReason).toBe("error");
    expect(end.message.errorMessage).toContain("json-mode bad request");
    expect(lines.slice(-3).map((e) => e.type)).toEqual(["agent_end", "session_settled", "agent_settled"]);
  });
});

describe("the eager todo prelude (todo.eager)", () => {
  it("adds the hidden prelude and forces todo_write on the first model call only", async () => {
    const before = calls().length;
    llm.enqueue(
      { toolCalls: [{ id: "t1", name: "todo_write", arguments: { ops: [{ op: "replace", phases: [{ name: "Work", tasks: [{ content: "Do it" }] }] }] } }] },
      { text: "Planned and done." },
    );
    const run = await runCli(["-p", ...MODEL, "Plan the work"], { settings: { todo: { eager: true, reminders: false } } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Planned and done.\n");
    const [first, second] = calls().slice(before);
    expect(first.body.tool_choice).toEqual({ type: "function", function: { name: "todo_write" } });
    expect(second.body.tool_choice).not.toEqual({ type: "function", function: { name: "todo_write" } });
  });
});
