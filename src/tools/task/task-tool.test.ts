import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentToolResult } from "../../shared/types.js";
import { BUILTIN_AGENTS, loadAgents, parseAgentMarkdown } from "./agents.js";
import { createTaskTool, emptyUsage } from "./task-tool.js";
import type { Subagent, SubagentFactory } from "./types.js";

function factory(o: { depth?: number; run?: (assignment: string, signal: { aborted: boolean }) => Promise<string> } = {}) {
  const log = { created: 0, aborted: 0, closed: 0, maxRunning: 0, running: 0 };
  const f: SubagentFactory = {
    depth: o.depth ?? 0,
    maxConcurrency: 2,
    maxRecursionDepth: 2,
    agents: () => [...BUILTIN_AGENTS],
    async create() {
      log.created++;
      const state = { aborted: false };
      const sub: Subagent = {
        async run(assignment, p) {
          log.running++;
          log.maxRunning = Math.max(log.maxRunning, log.running);
          p.onProgress({ activity: "thinking", turns: 1, tokens: 5 });
          try {
            const text = await (o.run ?? (async (a) => `answer to ${a}`))(assignment, state);
            const usage = { ...emptyUsage(), input: 10, output: 2, totalTokens: 12 };
            return state.aborted ? { status: "aborted", text: "", usage, turns: 1 } : { status: "completed", text, usage, turns: 1, sessionFile: `/s/${assignment}.jsonl` };
          } catch (err) {
            return { status: "error", text: "", error: (err as Error).message, usage: emptyUsage(), turns: 1 };
          } finally {
            log.running--;
          }
        },
        async abort() {
          state.aborted = true;
          log.aborted++;
        },
        async close() {
          log.closed++;
        },
      };
      return sub;
    },
  };
  return { f, log };
}

const ctx = (signal = new AbortController().signal, updates: AgentToolResult[] = []) => ({ cwd: "/", toolCallId: "c1", signal, onUpdate: (u: AgentToolResult) => updates.push(u) });
const text = (r: AgentToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("task tool", () => {
  it("runs every task, at most maxConcurrency at once, and labels each answer by id", async () => {
    const { f, log } = factory();
    const updates: AgentToolResult[] = [];
    const r = await createTaskTool(f).execute(
      { agent: "explore", context: "CTX", tasks: ["a", "b", "c"].map((id) => ({ id, description: `d-${id}`, assignment: id })) },
      ctx(undefined, updates),
    );
    expect(text(r)).toContain("## Task a: d-a\nanswer to CTX\n\na");
    expect(text(r)).toContain("## Task c: d-c");
    expect(log.maxRunning).toBeLessThanOrEqual(2);
    expect(log.closed).toBe(3);
    const d = r.details as { usage: { input: number }; subagents: Array<{ id: string; status: string; sessionFile?: string }> };
    expect(d.usage.input).toBe(30);
    expect(d.subagents.map((s) => [s.id, s.status])).toEqual([["a", "completed"], ["b", "completed"], ["c", "completed"]]);
    expect(updates.some((u) => text(u).includes("[a] running: thinking"))).toBe(true);
  });

  it("a failing subagent is an error in its own section", async () => {
    const { f } = factory({ run: async (a) => (a === "bad" ? Promise.reject(new Error("boom 500")) : "fine") });
    const r = await createTaskTool(f).execute({ agent: "task", tasks: [{ id: "ok", description: "", assignment: "good" }, { id: "ko", description: "", assignment: "bad" }] }, ctx());
    expect(text(r)).toContain("## Task ok\nfine");
    expect(text(r)).toContain("## Task ko\n[error] boom 500");
  });

  it("refuses a level beyond task.maxRecursionDepth, unknown agents and bad tasks", async () => {
    await expect(createTaskTool(factory({ depth: 2 }).f).execute({ agent: "task", tasks: [{ id: "x", description: "", assignment: "y" }] }, ctx())).rejects.toThrow(/nesting limit/);
    await expect(createTaskTool(factory().f).execute({ agent: "nope", tasks: [{ id: "x", description: "", assignment: "y" }] }, ctx())).rejects.toThrow(/Unknown agent "nope"/);
    await expect(createTaskTool(factory().f).execute({ agent: "task", tasks: [] }, ctx())).rejects.toThrow(/non-empty array/);
    const dup = [{ id: "x", description: "", assignment: "y" }, { id: "x", description: "", assignment: "z" }];
    await expect(createTaskTool(factory().f).execute({ agent: "task", tasks: dup }, ctx())).rejects.toThrow(/Duplicate task id/);
  });

  it("aborting the call aborts every running subagent", async () => {
    const ac = new AbortController();
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const { f, log } = factory({ run: async () => (await gate, "late") });
    const run = createTaskTool(f).execute({ agent: "task", tasks: ["a", "b"].map((id) => ({ id, description: "", assignment: id })) }, ctx(ac.signal));
    while (log.running < 2) await new Promise((r) => setTimeout(r, 1));
    ac.abort();
    release();
    const r = await run;
    expect(log.aborted).toBe(2);
    expect(text(r)).toContain("## Task a\n[aborted]");
  });

  it("lists the agents in its description", () => {
    const tool = createTaskTool(factory().f);
    expect(tool.description).toMatch(/- explore: .*\(read-only\)/);
    expect(tool.summary).toContain("explore");
  });
});

describe("agent definitions", () => {
  it("parses Claude Code's Markdown format", () => {
    const d = parseAgentMarkdown("---\nname: greper\ndescription: \"Greps\"\ntools: read, grep\nmodel: inherit\n---\nYou grep.\n", "/x/greper.md");
    expect(d).toEqual({ name: "greper", description: "Greps", tools: ["read", "grep"], systemPrompt: "You grep.", source: "/x/greper.md" });
    expect(parseAgentMarkdown("---\ndescription: d\ntools:\n  - read\n  - ls\nmodel: fake/m\n---\n", "/a/b.md")).toMatchObject({ name: "b", tools: ["read", "ls"], model: "fake/m" });
    expect(parseAgentMarkdown("no front matter", "/x.md")).toBeUndefined();
  });

  it("loads PITH_HOME/agents, .claude/agents and .pith/agents over the built-ins", () => {
    const home = mkdtempSync(path.join(tmpdir(), "pith-agents-"));
    const cwd = mkdtempSync(path.join(tmpdir(), "pith-agents-cwd-"));
    mkdirSync(path.join(home, "agents"));
    mkdirSync(path.join(cwd, ".pith", "agents"), { recursive: true });
    mkdirSync(path.join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(path.join(home, "agents", "one.md"), "---\nname: one\ndescription: from home\n---\nbody");
    writeFileSync(path.join(cwd, ".claude", "agents", "two.md"), "---\nname: two\ndescription: from claude\n---\n");
    writeFileSync(path.join(cwd, ".pith", "agents", "explore.md"), "---\nname: explore\ndescription: mine\ntools: read\n---\n");
    const warns: string[] = [];
    writeFileSync(path.join(cwd, ".pith", "agents", "bad.md"), "nothing");
    const agents = loadAgents({ pithHome: home, cwd, warn: (w) => warns.push(w) });
    expect(agents.map((a) => a.name)).toEqual(["task", "explore", "plan", "reviewer", "one", "two"]);
    expect(agents.find((a) => a.name === "explore")!.description).toBe("mine");
    expect(warns[0]).toMatch(/bad\.md has no front matter/);
  });
});
