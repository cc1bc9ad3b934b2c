// File checkpoints driven through the session facade: the scripted stream plays the model, a tool
// writes files, the checkpoint engine runs on the real git. Asserts on events, the session file,
// the files on disk and the conversation.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { sessionWiring } from "./session-wiring.js";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedStream, type Reply } from "../../test/support/agent.js";
import type { AgentSessionEvent } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import { BUSY_ERROR } from "./index.js";
import { testSession, testSettings } from "../../test/support/session.js";

const text = (t: string): Reply => ({ steps: [{ text: t }] });
const write = (id: string, file: string, content: string): Reply => ({ steps: [{ toolCall: { id, name: "put", args: { file, content } } }] });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A tool that writes `content` to `file` under the cwd, recording whether the checkpoint was there first. */
function putTool(cwd: string, seen: AgentSessionEvent[], log: string[]): Tool {
  return {
    name: "put",
    label: "put",
    description: "write a file",
    effect: "writes-files",
    parameters: { type: "object" },
    async execute(args: Record<string, unknown>) {
      log.push(`put after ${seen.filter((e) => e.type === "checkpoint_created").length} checkpoints`);
      writeFileSync(path.join(cwd, String(args.file)), String(args.content));
      return { content: [{ type: "text", text: "written" }], details: {} };
    },
  };
}

function setup(replies: Reply[], opts: { enabled?: boolean; pathEnv?: string; maxFiles?: number } = {}) {
  const cwd = tempDir("pith-cp-cwd-");
  const home = tempDir("pith-cp-home-");
  const { stream, calls } = scriptedStream(replies);
  const events: AgentSessionEvent[] = [];
  const toolLog: string[] = [];
  const settings = testSettings((s) => (s.fileCheckpoints = { enabled: opts.enabled ?? true, maxFileBytes: 1024, maxFiles: opts.maxFiles ?? 1000, retentionDays: 14 }));
  const t = testSession({ stream, cwd, settings, tools: [putTool(cwd, events, toolLog)], extra: { pithHome: home, pathEnv: opts.pathEnv ?? process.env.PATH } });
  t.session.subscribe((e) => events.push(e));
  return { ...t, cwd, home, calls, events, toolLog };
}

describe("file checkpoints in a session", () => {
  it("takes one checkpoint per prompt before the first tool, records it, and restores files and conversation", async () => {
    const t = setup([write("c1", "a.txt", "one"), text("wrote a"), write("c2", "a.txt", "two"), text("rewrote a"), text("after restore")]);
    writeFileSync(path.join(t.cwd, "keep.txt"), "keep");
    await t.session.prompt("first prompt").done;
    await t.session.prompt("second prompt").done;
    // each tool ran after its prompt's checkpoint was recorded
    expect(t.toolLog).toEqual(["put after 1 checkpoints", "put after 2 checkpoints"]);
    const created = t.events.filter((e) => e.type === "checkpoint_created");
    expect(created).toHaveLength(2);
    const list = await sessionWiring(t.session).checkpoints.list();
    expect(list.map((c) => [c.kind, c.prompt])).toEqual([
      ["prompt", "first prompt"],
      ["prompt", "second prompt"],
    ]);
    expect(created.map((e) => e.type === "checkpoint_created" && e.checkpointId)).toEqual(list.map((c) => c.checkpointId));
    // the entry id is the user message's
    const userIds = sessionWiring(t.session).history.branchMessages().map((m) => m.entryId);
    expect(list.map((c) => c.entryId)).toEqual(userIds);
    // the session file holds the checkpoint entries
    const file = readFileSync(sessionWiring(t.session).history.sessionFile!, "utf8");
    expect(file.match(/"customType":"pith.checkpoint"/g)).toHaveLength(2);

    const diff = await sessionWiring(t.session).checkpoints.diff(list[1].checkpointId);
    expect(diff.files).toEqual([{ path: "a.txt", status: "modified", additions: 1, deletions: 1 }]);
    const between = await sessionWiring(t.session).checkpoints.diff(list[0].checkpointId, list[1].checkpointId);
    expect(between.files.map((f) => [f.path, f.status])).toEqual([["a.txt", "added"]]);

    // files: a.txt goes back to "one"; the conversation stays
    const messagesBefore = sessionWiring(t.session).history.messages.length;
    const r1 = await sessionWiring(t.session).checkpoints.restore(list[1].checkpointId);
    expect(r1).toMatchObject({ restored: ["a.txt"], deleted: [] });
    expect(readFileSync(path.join(t.cwd, "a.txt"), "utf8")).toBe("one");
    expect(sessionWiring(t.session).history.messages.length).toBe(messagesBefore);

    // both: a.txt deleted, the conversation is back before the first prompt
    const r0 = await sessionWiring(t.session).checkpoints.restore(list[0].checkpointId, "both");
    expect(r0).toMatchObject({ restored: [], deleted: ["a.txt"] });
    expect(existsSync(path.join(t.cwd, "a.txt"))).toBe(false);
    expect(readFileSync(path.join(t.cwd, "keep.txt"), "utf8")).toBe("keep");
    expect(sessionWiring(t.session).history.messages).toEqual([]);
    const kinds = (await sessionWiring(t.session).checkpoints.list()).map((c) => c.kind);
    expect(kinds).toEqual(["prompt", "prompt", "restore", "restore"]);

    // the next prompt continues from there
    await t.session.prompt("fresh start").done;
    const lastCall = t.calls.at(-1)!;
    expect(JSON.stringify(lastCall.context.messages)).not.toContain("first prompt");
    expect(JSON.stringify(lastCall.context.messages)).toContain("fresh start");

    // undoing the last restore (both) brings files and conversation back
    await sessionWiring(t.session).checkpoints.restore(r0.undoCheckpointId, "both");
    expect(readFileSync(path.join(t.cwd, "a.txt"), "utf8")).toBe("one");
    expect(JSON.stringify(sessionWiring(t.session).history.messages)).toContain("second prompt");
  });

  it("steering and follow-up messages that join a run get their own checkpoint, before the tools after them", async () => {
    const t = setup([write("c1", "a.txt", "one"), write("c2", "b.txt", "two"), text("done"), write("c3", "c.txt", "three"), text("all done")]);
    let queued = false;
    t.session.subscribe((e) => {
      if (e.type === "tool_execution_start" && !queued) {
        queued = true;
        void t.session.handle({ type: "steer", message: "also b" });
        void t.session.handle({ type: "follow_up", message: "then c" });
      }
    });
    await t.session.prompt("write a").done;
    const list = await sessionWiring(t.session).checkpoints.list();
    expect(list.map((c) => c.prompt)).toEqual(["write a", "also b", "then c"]);
    expect(t.toolLog).toEqual(["put after 1 checkpoints", "put after 2 checkpoints", "put after 3 checkpoints"]);
    // the steer's checkpoint holds a.txt but not b.txt
    const d = await sessionWiring(t.session).checkpoints.diff(list[1].checkpointId, list[2].checkpointId);
    expect(d.files.map((f) => `${f.status} ${f.path}`)).toEqual(["added b.txt"]);
  });

  it("fails clearly for unknown ids, bad modes, paths outside the cwd and during a run", async () => {
    const t = setup([{ steps: [{ hang: true }] }]);
    await expect(sessionWiring(t.session).checkpoints.restore("0123456789abcdef")).rejects.toThrow(/Unknown checkpoint: 0123456789abcdef/);
    await expect(sessionWiring(t.session).checkpoints.diff("nope")).rejects.toThrow(/Unknown checkpoint/);
    await expect(sessionWiring(t.session).checkpoints.restore("x", "everything")).rejects.toThrow(/Invalid "mode"/);
    const handle = t.session.prompt("hang");
    await handle.accepted;
    while (!t.events.some((e) => e.type === "checkpoint_created")) await new Promise((r) => setTimeout(r, 5));
    await expect(sessionWiring(t.session).checkpoints.restore((await sessionWiring(t.session).checkpoints.list())[0].checkpointId)).rejects.toThrow(/while a run is active: abort it first/);
    await t.session.abort();
    const [cp] = await sessionWiring(t.session).checkpoints.list();
    await expect(sessionWiring(t.session).checkpoints.restore(cp.checkpointId, "files", ["../outside"])).rejects.toThrow(/outside the working folder/);
    // a prompt while a restore is under way is refused like one during a run
    const restoring = sessionWiring(t.session).checkpoints.restore(cp.checkpointId);
    await expect(t.session.prompt("during restore").accepted).rejects.toThrow(BUSY_ERROR);
    await restoring;
    expect(t.session.isStreaming).toBe(false);
  });

  it("is off when git is not on the PATH, says why, and prompts still work", async () => {
    const t = setup([write("c1", "a.txt", "one"), text("ok")], { pathEnv: tempDir("pith-empty-path-") });
    expect(await sessionWiring(t.session).checkpoints.state()).toEqual({ enabled: false, reason: "git was not found on PATH" });
    await t.session.prompt("go").done;
    expect(readFileSync(path.join(t.cwd, "a.txt"), "utf8")).toBe("one");
    expect(await sessionWiring(t.session).checkpoints.list()).toEqual([]);
    await expect(sessionWiring(t.session).checkpoints.diff("0123456789abcdef")).rejects.toThrow(/File checkpoints are off: git was not found on PATH/);
  });

  it("a folder with more than maxFiles files: one checkpoint_notice, then off (get_state says why); the run goes on", async () => {
    const t = setup([write("c1", "a.txt", "one"), text("ok")], { maxFiles: 2 });
    for (const f of ["x", "y", "z"]) writeFileSync(path.join(t.cwd, f), f);
    await t.session.prompt("go").done;
    await sessionWiring(t.session).checkpoints.list();
    const notices = t.events.filter((e) => e.type === "checkpoint_notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ message: expect.stringContaining("more than 2 files") });
    expect(readFileSync(path.join(t.cwd, "a.txt"), "utf8")).toBe("one");
    expect(await sessionWiring(t.session).checkpoints.list()).toEqual([]);
    expect(await sessionWiring(t.session).checkpoints.state()).toEqual({ enabled: false, reason: expect.stringContaining("raise fileCheckpoints.maxFiles") });
  });

  it("is off by default and spawns nothing", async () => {
    const t = setup([text("ok")], { enabled: false });
    await t.session.prompt("go").done;
    expect(await sessionWiring(t.session).checkpoints.state()).toEqual({ enabled: false, reason: expect.stringContaining("fileCheckpoints.enabled is false") });
    expect(existsSync(path.join(t.home, "checkpoints"))).toBe(false);
  });
});
