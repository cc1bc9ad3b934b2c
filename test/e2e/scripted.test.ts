// The same prompting scenarios with the offline `scripted` provider, and the README's first
// command: a prompt piped in, stdin closed, the whole run printed.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, trackPiths, Pith, tempDir, type Frame } from "./harness.js";

const open = trackPiths();

async function withScript(script: unknown): Promise<Pith> {
  const dir = tempDir("pith-script-");
  const file = path.join(dir, "script.json");
  writeFileSync(file, JSON.stringify(script));
  const p = await Pith.start({ args: ["--no-session", "--provider", "scripted", "--model", file] });
  open.push(p);
  return p;
}

const assistantEnd = (frames: Frame[]) => frames.filter((f) => f.type === "message_end" && f.message.role === "assistant");

describe("the scripted provider", () => {
  it("streams text, thinking and tool calls, and runs the tools", async () => {
    const p = await withScript({
      replies: [
        { thinking: "plan", text: "Listing.", toolCalls: [{ name: "ls", arguments: { path: "." } }] },
        { text: ["All ", "done."] },
      ],
    });
    writeFileSync(path.join(p.cwd, "hello.txt"), "x");
    const frames = await p.promptAndWait("go");
    const ends = assistantEnd(frames);
    expect(ends.map((f) => f.message.stopReason)).toEqual(["toolUse", "stop"]);
    expect(ends[0].message.content.map((b: Frame) => b.type)).toEqual(["thinking", "text", "toolCall"]);
    const tool = frames.find((f) => f.type === "tool_execution_end")!;
    expect(tool.result.content[0].text).toContain("hello.txt");
    expect(ends[1].message.content[0].text).toBe("All done.");
  });

  it("reports a scripted error as an error reply", async () => {
    const p = await withScript({ replies: [{ error: "scripted failure" }] });
    await p.request({ type: "set_auto_retry", enabled: false });
    const frames = await p.promptAndWait("fail");
    expect(assistantEnd(frames)[0].message).toMatchObject({ stopReason: "error", errorMessage: "scripted failure" });
  });

  it("aborts mid-stream", async () => {
    const p = await withScript({ replies: [{ text: Array.from({ length: 200 }, (_, i) => `w${i} `), chunkDelayMs: 20 }, { text: "after" }] });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "slow" });
    await p.waitFor((f) => f.type === "message_update", 10_000, from);
    await p.request({ type: "abort" });
    const end = assistantEnd(p.frames.slice(from))[0];
    expect(end.message.stopReason).toBe("aborted");
    const again = await p.promptAndWait("next");
    expect(assistantEnd(again)[0].message.content[0].text).toBe("after");
  });

  it("passes prompt images through to a model that accepts them", async () => {
    const p = await withScript({ replies: [{ text: "seen" }] });
    const frames = await p.promptAndWait("look", { images: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] });
    const user = frames.find((f) => f.type === "message_end" && f.message.role === "user")!;
    expect(user.message.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
  });
});

describe("the README's first command", () => {
  it("prints a whole streamed run for a piped prompt and exits 0", () => {
    const repo = path.resolve(path.dirname(CLI), "..");
    const home = tempDir("pith-home-");
    const res = spawnSync(
      process.execPath,
      [CLI, "--mode", "rpc", "--no-session", "--provider", "scripted", "--model", "examples/scripted/tool-then-answer.json"],
      { cwd: repo, input: '{"type":"prompt","message":"What is in this folder?"}\n', env: { PATH: process.env.PATH, PITH_HOME: home, HOME: home }, encoding: "utf8", timeout: 30_000 },
    );
    expect(res.status).toBe(0);
    const frames = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(frames[0].type).toBe("ready");
    expect(frames[1]).toEqual({ type: "response", command: "prompt", success: true });
    const types = frames.map((f) => f.type);
    expect(types).toContain("tool_execution_end");
    expect(types.slice(-4)).toEqual(["agent_end", "prompt_result", "session_settled", "agent_settled"]);
    expect(frames.find((f) => f.type === "tool_execution_end").result.content[0].text).toContain("README.md");
  });
});
