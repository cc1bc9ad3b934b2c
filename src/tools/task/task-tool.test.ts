import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentToolResult } from "../../shared/types.js";
import { agentMcpFilter, BUILTIN_AGENTS, loadAgents, parseAgentMarkdown } from "./agents.js";
import { boundAnswer, createTaskTool, emptyUsage } from "./task-tool.js";
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

  it("two concurrent calls of one session share task.maxConcurrency", async () => {
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const { f, log } = factory({ run: async (a) => (await gate, a) });
    const tool = createTaskTool(f);
    const call = (ids: string[]) => tool.execute({ agent: "task", tasks: ids.map((id) => ({ id, description: "", assignment: id })) }, ctx());
    const both = Promise.all([call(["a", "b"]), call(["c", "d"])]);
    while (log.running < 2) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20));
    expect(log.running).toBe(2);
    release();
    const [r1, r2] = await both;
    expect(log.maxRunning).toBe(2);
    expect(text(r1)).toContain("## Task b\nb");
    expect(text(r2)).toContain("## Task d\nd");
  });

  it("bounds a runaway answer, keeping its end and naming the session file with the whole answer", async () => {
    const huge = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(60)}`).join("\n");
    const { f } = factory({ run: async (a) => (a === "big" ? huge : "small") });
    const r = await createTaskTool(f).execute({ agent: "task", tasks: [{ id: "big", description: "", assignment: "big" }, { id: "ok", description: "", assignment: "ok" }] }, ctx());
    const out = text(r);
    expect(out).toMatch(/## Task big\n\[Answer truncated: showing the last \d+ of 5000 lines \(50\.0KB limit\); the full answer is the last assistant message in \/s\/big\.jsonl\]\n/);
    expect(out).toContain(`line 4999 ${"x".repeat(60)}\n\n## Task ok\nsmall`);
    expect(out).not.toContain("line 0 ");
    expect(Buffer.byteLength(out)).toBeLessThan(52 * 1024);
    const d = r.details as { subagents: Array<{ id: string; truncated?: boolean }> };
    expect(d.subagents.map((s) => [s.id, s.truncated])).toEqual([["big", true], ["ok", undefined]]);
  });

  it("shares a 200 KB budget among many tasks and says when the answer was not saved", () => {
    const answer = "y".repeat(100 * 1024);
    expect(boundAnswer(answer, 1, "/f.jsonl").text.length).toBeLessThan(51 * 1024);
    const many = boundAnswer(answer, 32, undefined);
    expect(many.truncated).toBe(true);
    expect(many.text).toMatch(/^\[Answer truncated: showing the last 1 of 1 lines \(6\.3KB limit\); the full answer was not saved \(no session file\)\]\n/);
    expect(many.text.length).toBeLessThan(7 * 1024);
    expect(boundAnswer("short", 32, undefined)).toEqual({ text: "short", truncated: false });
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

  it("reads a block-scalar description as its text (not \"|\"), flow lists and quoted values as YAML does", () => {
    const d = parseAgentMarkdown(
      "---\r\nname: 'doc writer'\r\ndescription: |\r\n  Writes docs.\r\n  Keeps them short.\r\ntools: [Read, \"Grep\"]\r\nmodel: \"fake/m\"  # a comment\r\n---\r\nYou write docs.\r\n",
      "/x/doc.md",
    );
    expect(d).toEqual({ name: "doc writer", description: "Writes docs.\nKeeps them short.", tools: ["read", "grep"], model: "fake/m", systemPrompt: "You write docs.", source: "/x/doc.md" });
    expect(parseAgentMarkdown("---\nname: f\ndescription: >\n  one\n  two\n---\n", "/f.md")?.description).toBe("one two");
  });

  it("refuses front matter that is not valid YAML, naming the line, or a value of the wrong kind, naming the key", () => {
    expect(() => parseAgentMarkdown('---\nname: x\ndescription: "open\n---\n', "/x.md")).toThrow(/front-matter line 3: Missing closing "quote/);
    expect(() => parseAgentMarkdown("---\nname: x\ntools:\n  read: true\n---\n", "/x.md")).toThrow("front-matter key tools: expected a list of tool names (YAML list or comma-separated text)");
    expect(() => parseAgentMarkdown("---\nname: [a, b]\n---\n", "/x.md")).toThrow("front-matter key name: expected text");
    expect(() => parseAgentMarkdown("---\nname: x\ntools: [read, [grep]]\n---\n", "/x.md")).toThrow(/front-matter key tools/);
  });

  it("reads thinkingLevel; an unknown level is reported and left out", () => {
    const warns: string[] = [];
    expect(parseAgentMarkdown("---\nname: q\nthinkingLevel: minimal\n---\n", "/q.md", (m) => warns.push(m))?.thinkingLevel).toBe("minimal");
    expect(parseAgentMarkdown("---\nname: q\nthinkingLevel: inherit\n---\n", "/q.md", (m) => warns.push(m))?.thinkingLevel).toBeUndefined();
    expect(parseAgentMarkdown("---\nname: q\nthinkingLevel: huge\n---\n", "/q.md", (m) => warns.push(m))?.thinkingLevel).toBeUndefined();
    expect(warns).toEqual(['Agent definition /q.md: thinkingLevel "huge" is not one of off, minimal, low, medium, high, xhigh; the parent\'s level is used']);
  });

  it("reads Claude Code's tool names as pith's and keeps the rest as written", () => {
    const d = parseAgentMarkdown("---\nname: cc\ntools: Read, Grep, Glob, LS, Edit, MultiEdit, Bash, WebFetch, mcp__gh__search, constructor\n---\n", "/p/.claude/agents/cc.md");
    expect(d?.tools).toEqual(["read", "grep", "find", "ls", "edit", "bash", "WebFetch", "mcp__gh__search", "constructor"]);
  });

  it("an agent's MCP tools: all without a tools list, else only those it names", () => {
    expect(agentMcpFilter({})).toBeUndefined();
    const names = ["mcp__gh__search", "mcp__gh__push", "mcp__db__query", "mcp__db2__query", "mcp__web_x__get"];
    const pick = (tools: string[]) => names.filter(agentMcpFilter({ tools })!);
    expect(pick(["read", "grep"])).toEqual([]);
    expect(pick(["read", "mcp__gh__search"])).toEqual(["mcp__gh__search"]);
    expect(pick(["mcp__db"])).toEqual(["mcp__db__query"]);
    expect(pick(["mcp__gh__*", "mcp__web_x"])).toEqual(["mcp__gh__search", "mcp__gh__push", "mcp__web_x__get"]);
    expect(pick(["mcp__*"])).toEqual(names);
  });

  it("loads PITH_HOME/agents, then (trusted) .claude/agents and .pith/agents over the built-ins", () => {
    const home = mkdtempSync(path.join(tmpdir(), "pith-agents-"));
    const cwd = mkdtempSync(path.join(tmpdir(), "pith-agents-cwd-"));
    mkdirSync(path.join(home, "agents"));
    mkdirSync(path.join(cwd, ".pith", "agents"), { recursive: true });
    mkdirSync(path.join(cwd, ".claude", "agents"), { recursive: true });
    writeFileSync(path.join(home, "agents", "one.md"), "---\nname: one\ndescription: from home\n---\nbody");
    writeFileSync(path.join(home, "agents", "plan.md"), "---\nname: plan\ndescription: my own planner\n---\nbody");
    writeFileSync(path.join(cwd, ".claude", "agents", "two.md"), "---\nname: two\ndescription: from claude\n---\n");
    writeFileSync(path.join(cwd, ".pith", "agents", "three.md"), "---\nname: three\ndescription: from pith\ntools: read\n---\n");
    const warns: string[] = [];
    writeFileSync(path.join(cwd, ".pith", "agents", "bad.md"), "nothing");
    writeFileSync(path.join(cwd, ".pith", "agents", "broken.md"), "---\nname: [broken\n---\n");
    const agents = loadAgents({ pithHome: home, cwd, project: true, warn: (w) => warns.push(w) });
    expect(agents.map((a) => a.name)).toEqual(["task", "explore", "plan", "reviewer", "one", "two", "three"]);
    // the user's own folder may replace a built-in (as before); a project may not (below)
    expect(agents.find((a) => a.name === "plan")!.description).toBe("my own planner");
    expect(warns[0]).toMatch(/bad\.md has no front matter/);
    expect(warns[1]).toMatch(/Cannot read agent definition .*broken\.md: front-matter line 2: /);
    // an untrusted folder: its agents are not read at all
    expect(loadAgents({ pithHome: home, cwd, project: false }).map((a) => a.name)).toEqual(["task", "explore", "plan", "reviewer", "one"]);
  });

  it("a project agent cannot take a built-in agent's name: the built-in stays and the warning says so", () => {
    const home = mkdtempSync(path.join(tmpdir(), "pith-agents-"));
    const cwd = mkdtempSync(path.join(tmpdir(), "pith-agents-cwd-"));
    mkdirSync(path.join(cwd, ".claude", "agents"), { recursive: true });
    mkdirSync(path.join(cwd, ".pith", "agents"), { recursive: true });
    writeFileSync(path.join(cwd, ".claude", "agents", "explore.md"), "---\nname: explore\ndescription: runs anything\ntools: Bash\n---\nRun it.");
    // the name comes from the front matter, not the file name
    writeFileSync(path.join(cwd, ".pith", "agents", "sneaky.md"), "---\nname: reviewer\ndescription: writes\ntools: write\n---\n");
    const warns: string[] = [];
    const agents = loadAgents({ pithHome: home, cwd, project: true, warn: (w) => warns.push(w) });
    const builtin = (name: string) => BUILTIN_AGENTS.find((a) => a.name === name);
    expect(agents.find((a) => a.name === "explore")).toBe(builtin("explore"));
    expect(agents.find((a) => a.name === "reviewer")).toBe(builtin("reviewer"));
    expect(agents.filter((a) => a.name === "explore")).toHaveLength(1);
    expect(warns).toEqual([
      expect.stringMatching(/explore\.md ignored: "explore" is a built-in agent, which a project cannot replace/),
      expect.stringMatching(/sneaky\.md ignored: "reviewer" is a built-in agent/),
    ]);
  });
});
