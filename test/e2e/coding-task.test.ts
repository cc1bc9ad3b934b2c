// A full coding task driven by a scripted model through the real tools: read, grep, edit,
// run the tests with bash, see the failure, edit again, finish. And no process survives.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { Pith, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

const MATH = `export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n`;
const TEST = `import { add, mul } from "./math.mjs";\nif (add(2, 3) !== 5) { console.error("add failed: " + add(2, 3)); process.exit(1); }\nif (mul(2, 3) !== 6) { console.error("mul failed"); process.exit(1); }\nconsole.log("all tests passed");\n`;

/** The text of the tool result for `toolCallId` in a request body (either wire API). */
function toolResultText(body: any, toolCallId: string): string {
  const json = JSON.stringify(body);
  const at = json.indexOf(toolCallId, json.indexOf(toolCallId) + 1);
  return at === -1 ? "" : json.slice(at, at + 600);
}

describe("a coding task end to end", () => {
  it("reads, greps, edits, runs the tests, fixes the failure and finishes", async () => {
    const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "fake-claude"] });
    open.push(p);
    writeFileSync(path.join(p.cwd, "math.mjs"), MATH);
    writeFileSync(path.join(p.cwd, "test.mjs"), TEST);
    const node = JSON.stringify(process.execPath);
    const before = llm.requests.length;
    llm.enqueue(
      { toolCalls: [{ id: "t_read", name: "read", arguments: { path: "math.mjs" } }] },
      { toolCalls: [{ id: "t_grep", name: "grep", arguments: { pattern: "export function", glob: "*.mjs" } }] },
      // A wrong fix first: the tests will fail.
      { toolCalls: [{ id: "t_edit1", name: "edit", arguments: { path: "math.mjs", oldText: "return a - b;", newText: "return a + b + 1;" } }] },
      { toolCalls: [{ id: "t_test1", name: "bash", arguments: { command: `${node} test.mjs` } }] },
      { toolCalls: [{ id: "t_edit2", name: "edit", arguments: { path: "math.mjs", oldText: "return a + b + 1;", newText: "return a + b;" } }] },
      { toolCalls: [{ id: "t_test2", name: "bash", arguments: { command: `${node} test.mjs` } }] },
      { text: "Fixed add(); the tests pass." },
    );
    const frames = await p.promptAndWait("Fix the add function so the tests pass", {}, 60_000);
    expect(readFileSync(path.join(p.cwd, "math.mjs"), "utf8")).toBe(MATH.replace("return a - b;", "return a + b;"));
    const ends = new Map(frames.filter((f) => f.type === "tool_execution_end").map((f) => [f.toolCallId, f] as [string, Frame]));
    expect(ends.get("t_read")!.isError).toBe(false);
    expect(ends.get("t_test1")!.isError).toBe(true);
    expect(ends.get("t_test2")!.isError).toBe(false);
    expect(ends.get("t_edit1")!.result.details.diff).toContain("+  return a + b + 1;");
    // What the model saw, request by request.
    const reqs = llm.requests.slice(before).filter((r) => r.method === "POST");
    expect(reqs).toHaveLength(7);
    expect(toolResultText(reqs[1].body, "t_read")).toContain("return a - b;");
    expect(toolResultText(reqs[2].body, "t_grep")).toMatch(/math\.mjs:1:.*export function add/);
    expect(toolResultText(reqs[4].body, "t_test1")).toContain("add failed: 6");
    expect(toolResultText(reqs[4].body, "t_test1")).toContain("Command exited with code 1");
    expect(toolResultText(reqs[6].body, "t_test2")).toContain("all tests passed");
    const agentEnd = frames.find((f) => f.type === "agent_end")!;
    expect(agentEnd.messages.at(-1).content[0].text).toBe("Fixed add(); the tests pass.");
  });

  it("leaves no process behind: a bash tool's background grandchild dies on abort and EOF", async () => {
    const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    open.push(p);
    const pidFile = path.join(p.cwd, "child.pid");
    llm.enqueue({ toolCalls: [{ id: "t_bg", name: "bash", arguments: { command: `sleep 300 & echo $! > ${pidFile}; wait` } }] });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "start a background job" });
    await p.waitFor((f) => f.type === "tool_execution_start", 10_000, from);
    let grandchild = 0;
    for (let i = 0; i < 100 && !grandchild; i++) {
      try {
        grandchild = Number(readFileSync(pidFile, "utf8").trim());
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    expect(grandchild).toBeGreaterThan(0);
    expect(alive(grandchild)).toBe(true);
    await p.request({ type: "abort" });
    expect(await p.close()).toBe(0);
    for (let i = 0; i < 50 && alive(grandchild); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(grandchild)).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie is dead for our purposes.
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}
