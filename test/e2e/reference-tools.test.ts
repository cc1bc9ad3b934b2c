// The reference's tools through the built CLI against the scripted SSE server: a model uses
// each one (hashline edit, calc, render_mermaid, ast_grep, ast_edit, notebook, display_image,
// inspect_image, python) and the right results reach the fake model; python keeps state and is
// interrupted by abort; a tool whose dependency is missing is simply not offered.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadLineHasher } from "../../src/tools/hashline/line-hash.js";
import { offeredTools } from "../support/offered-tools.js";
import { hasPythonKernel } from "../support/python-kernel.js";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const hasKernel = hasPythonKernel();

async function start(settings: unknown): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  mkdirSync(pithHome, { recursive: true });
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify(settings));
  const p = await Pith.start({ pithHome, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "fake-claude"] });
  open.push(p);
  return p;
}

/** The text the model got back for `toolCallId`, from the request bodies the fake received. */
function seenResult(toolCallId: string, from: number): string {
  for (const r of llm.requests.slice(from)) {
    for (const m of (r.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? []) {
      if (m.role !== "user" || !Array.isArray(m.content)) continue;
      for (const b of m.content as Array<Record<string, unknown>>) {
        if (b.type === "tool_result" && b.tool_use_id === toolCallId) {
          const c = b.content;
          return Array.isArray(c) ? c.map((x: Record<string, unknown>) => (x.type === "text" ? x.text : `[${x.type}]`)).join("\n") : String(c);
        }
      }
    }
  }
  return "";
}

// every tool the model can use: its own definition or a line of call_tool's (tools.deferred)
const toolNames = (req: { body: unknown }): string[] => offeredTools(req.body).all;

describe("the reference's tools end to end", () => {
  it("a model uses hashline edit, calc, render_mermaid, ast_grep, ast_edit, notebook, display_image and inspect_image", async () => {
    const p = await start({ edit: { mode: "hashline" } });
    const SRC = "export function add(a: number, b: number) {\n  return a - b;\n}\nconsole.log(add(1, 2));\n";
    writeFileSync(path.join(p.cwd, "math.ts"), SRC);
    writeFileSync(path.join(p.cwd, "dot.png"), Buffer.from(PNG, "base64"));
    writeFileSync(path.join(p.cwd, "n.ipynb"), JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [] }));
    const hash = await loadLineHasher();
    const before = llm.requests.length;
    llm.enqueue(
      { toolCalls: [{ id: "t_read", name: "read", arguments: { path: "math.ts" } }] },
      { toolCalls: [{ id: "t_edit", name: "edit", arguments: { edits: [{ path: "math.ts", loc: { range: { pos: `2#${hash(2, "  return a - b;")}`, end: `2#${hash(2, "  return a - b;")}` } }, content: ["  return a + b;"] }] } }] },
      { toolCalls: [{ id: "t_stale", name: "edit", arguments: { edits: [{ path: "math.ts", loc: { append: `2#${hash(2, "  return a - b;")}` }, content: ["x"] }] } }] },
      { toolCalls: [{ id: "t_calc", name: "calc", arguments: { calculations: [{ expression: "0x10 + 2 ** 3", prefix: "n = ", suffix: "" }] } }] },
      { toolCalls: [{ id: "t_mermaid", name: "render_mermaid", arguments: { mermaid: "graph LR\n  A --> B" } }] },
      { toolCalls: [{ id: "t_grep", name: "ast_grep", arguments: { pat: ["console.log($$$ARGS)"] } }] },
      { toolCalls: [{ id: "t_astedit", name: "ast_edit", arguments: { ops: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }] } }] },
      { toolCalls: [{ id: "t_nb", name: "notebook", arguments: { action: "insert", notebook_path: "n.ipynb", cell_index: 0, content: "print(1)" } }] },
      { toolCalls: [{ id: "t_show", name: "display_image", arguments: { path: "dot.png", caption: "a dot" } }] },
      { toolCalls: [{ id: "t_inspect", name: "inspect_image", arguments: { path: "dot.png", question: "What colour is the pixel?" } }] },
      { text: "The pixel is red." }, // the vision request of inspect_image
      { text: "All done." },
    );
    const frames = await p.promptAndWait("use the tools", {}, 90_000);
    const ends = new Map(frames.filter((f) => f.type === "tool_execution_end").map((f) => [f.toolCallId, f] as [string, Frame]));
    for (const id of ["t_read", "t_edit", "t_calc", "t_mermaid", "t_grep", "t_astedit", "t_nb", "t_show", "t_inspect"]) {
      expect(ends.get(id)?.isError, `${id}: ${JSON.stringify(ends.get(id)?.result).slice(0, 400)}`).toBe(false);
    }
    expect(ends.get("t_stale")!.isError).toBe(true);
    expect(readFileSync(path.join(p.cwd, "math.ts"), "utf8")).toBe(SRC.replace("a - b", "a + b").replace("console.log(add(1, 2))", "logger.info(add(1, 2))"));
    expect(JSON.parse(readFileSync(path.join(p.cwd, "n.ipynb"), "utf8")).cells[0]).toMatchObject({ cell_type: "code", source: ["print(1)"], outputs: [] });

    // every tool was offered, and what the model saw
    const reqs = llm.requests.slice(before).filter((r) => r.method === "POST");
    expect(toolNames(reqs[0])).toEqual(expect.arrayContaining(["read", "edit", "python", "ast_grep", "ast_edit", "notebook", "calc", "render_mermaid", "inspect_image", "display_image"].filter((n) => hasKernel || n !== "python")));
    expect(seenResult("t_read", before)).toContain(`1#${hash(1, "export function add(a: number, b: number) {")}:export function add`);
    expect(seenResult("t_edit", before)).toMatch(/^Updated math\.ts\nChanges: \+1 -1\n\nDiff preview:/);
    expect(seenResult("t_stale", before)).toMatch(/^1 line has changed since last read\.[\s\S]*>>> 2#..: {2}return a \+ b;/);
    expect(seenResult("t_calc", before)).toBe("n = 24");
    expect(seenResult("t_mermaid", before)).toContain("│ A ├────►│ B │");
    expect(seenResult("t_grep", before)).toBe("# math.ts\n4:console.log(add(1, 2))\n  meta: ARGS=add(1, 2)");
    expect(seenResult("t_astedit", before)).toContain("Applied 1 replacement in 1 file.");
    expect(seenResult("t_nb", before)).toBe("Inserted code cell at position 0. Notebook now has 1 cells.");
    expect(seenResult("t_show", before)).toBe("[image]\na dot");
    expect(seenResult("t_inspect", before)).toBe("The pixel is red.");
    // the vision request: the image and the question, no tools
    const vision = reqs.find((r) => JSON.stringify(r.body).includes("What colour is the pixel?") && toolNames(r).length === 0)!;
    expect(JSON.stringify(vision.body)).toContain(PNG);
    expect(ends.get("t_inspect")!.result.details).toMatchObject({ model: "fake-anthropic/fake-claude" });
    const stats = await p.request({ type: "get_session_stats" });
    expect(stats.data.tokens.input).toBeGreaterThan(0);
  }, 120_000);

  it.runIf(hasKernel)("python keeps state between two calls, streams output and is interrupted by abort", async () => {
    const p = await start({ python: { interpreter: "/usr/bin/python3" } });
    const before = llm.requests.length;
    llm.enqueue(
      { toolCalls: [{ id: "t_py1", name: "python", arguments: { cells: [{ code: "x = 41\nprint('set')" }] } }] },
      { toolCalls: [{ id: "t_py2", name: "python", arguments: { cells: [{ code: "print(x + 1)" }] } }] },
      { text: "x + 1 is 42." },
    );
    await p.promptAndWait("compute", {}, 90_000);
    expect(seenResult("t_py1", before)).toBe("set");
    expect(seenResult("t_py2", before)).toBe("42");

    llm.enqueue({ toolCalls: [{ id: "t_py3", name: "python", arguments: { cells: [{ code: "import time\nprint('sleeping', flush=True)\ntime.sleep(60)" }] } }] });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "sleep" });
    const update = await p.waitFor((f) => f.type === "tool_execution_update" && f.toolCallId === "t_py3", 60_000, from);
    expect(JSON.stringify(update.partialResult)).toContain("sleeping");
    const abortedAt = Date.now();
    await p.request({ type: "abort" });
    const end = await p.waitFor((f) => f.type === "tool_execution_end" && f.toolCallId === "t_py3", 10_000, from);
    await p.waitFor((f) => f.type === "agent_end", 10_000, from);
    console.log(`python abort → tool_execution_end in ${Date.now() - abortedAt} ms`);
    expect(end.isError).toBe(true);
    // the kernel was interrupted, not killed: the next call runs at once (not after the 60 s sleep) with x still set
    const again = llm.requests.length;
    llm.enqueue({ toolCalls: [{ id: "t_py4", name: "python", arguments: { cells: [{ code: "print(x)" }] } }] }, { text: "41" });
    await p.promptAndWait("x?", {}, 30_000);
    expect(seenResult("t_py4", again)).toBe("41");
  }, 120_000);

  it("a tool whose dependency is missing is not offered, and get_state says why", async () => {
    const p = await start({ python: { interpreter: "/nonexistent/python3" }, calc: { enabled: false } });
    let state: Frame;
    do {
      state = await p.request({ type: "get_state" });
      await new Promise((r) => setTimeout(r, 50));
    } while (state.data.unavailableTools?.[0]?.reason.startsWith("checking"));
    expect(state.data.unavailableTools).toEqual([{ name: "python", reason: expect.stringMatching(/^no Python interpreter that can import ipykernel and jupyter_client \(tried \/nonexistent\/python3\)/) }]);
    const names = state.data.dumpTools.map((t: { name: string }) => t.name);
    expect(names).not.toContain("python");
    expect(names).not.toContain("calc");
    expect(names).toContain("ast_grep");
    const before = llm.requests.length;
    llm.enqueue({ text: "ok" });
    await p.promptAndWait("hi", {}, 30_000);
    const offered = toolNames(llm.requests.slice(before).find((r) => r.method === "POST")!);
    expect(offered).not.toContain("python");
    expect(offered).toContain("notebook");
  }, 60_000);
});
