// The servers of a session against a scripted server (test/support/fake-lsp-server.mjs): fresh
// diagnostics after each write, a hanging server bounded by the caller's time, a crashing one
// restarted once a minute at most, and what hosts are told about each.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../tools/index.js";
import { checkFile } from "./check-file.js";
import { planServers } from "./config.js";
import { LspManager } from "./manager.js";
import { defaultLspSettings, type LspSettings } from "./types.js";
import { createFileObserver } from "./write-observer.js";

const FAKE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test/support/fake-lsp-server.mjs");
const managers: LspManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.shutdown()));
});

function setUp(mode: string, over: Partial<LspSettings> = {}, now?: () => number) {
  const cwd = mkdtempSync(path.join(tmpdir(), "pith-lsp-"));
  const log = path.join(cwd, "starts.log");
  const settings: LspSettings = { ...defaultLspSettings(), enabled: true, ...over, servers: { fake: { command: process.execPath, args: [FAKE, mode], fileTypes: [".fk"], language: "fake" } } };
  const manager = new LspManager({
    cwd,
    plans: planServers(settings, "", cwd),
    env: { ...process.env, FAKE_LSP_LOG: log } as Record<string, string>,
    processId: process.pid,
    line: (plan) => ({ file: plan.resolved!, args: plan.config.args ?? [] }),
    now,
  });
  managers.push(manager);
  const observer = createFileObserver({ manager, settings, fs: createNodeFsOps() });
  const starts = () => (readFileSync(log, { encoding: "utf8", flag: "a+" }).match(/^start /gm) ?? []).length;
  return { cwd, manager, observer, starts };
}

const within = (ms: number) => AbortSignal.timeout(ms);

describe("diagnostics from a server", () => {
  it("gives the diagnostics of each new text, and none once the error is gone", async () => {
    const { cwd, manager } = setUp("normal");
    const file = path.join(cwd, "a.fk");
    const first = await checkFile(manager, file, "ok\nan ERROR here\n", within(10_000));
    expect(first).toMatchObject({ kind: "diagnostics", server: "fake" });
    expect(first.kind === "diagnostics" && first.diagnostics.map((d) => d.range.start.line)).toEqual([1]);
    // the same document again, fixed: the server is made to publish afresh (its clear on close is not taken for the answer)
    const fixed = await checkFile(manager, file, "ok\nfine\n", within(10_000));
    expect(fixed).toEqual({ kind: "diagnostics", server: "fake", diagnostics: [] });
    const again = await checkFile(manager, file, "ERROR\nok\n", within(10_000));
    expect(again.kind === "diagnostics" && again.diagnostics.map((d) => d.range.start.line)).toEqual([0]);
    expect(manager.statuses()[0]).toEqual({ name: "fake", language: "fake", command: process.execPath, status: "running", root: cwd, pid: expect.any(Number) });
  });

  it("adds errors to a write result compactly, and nothing for clean, unchanged or unknown files", async () => {
    const { cwd, observer } = setUp("normal", { diagnosticsTimeoutMs: 10_000 });
    const file = path.join(cwd, "b.fk");
    const content = Array.from({ length: 14 }, (_, i) => `line ${i} ERROR`).join("\n");
    const note = await observer.afterWrite({ path: file, content, kind: "write" }, new AbortController().signal);
    const lines = note!.split("\n");
    expect(lines[0]).toBe("LSP fake: 14 errors");
    expect(lines[1]).toBe("b.fk:1:8 error: ERROR found on line 1 (fake)");
    expect(lines).toHaveLength(12);
    expect(lines[11]).toBe("… 4 more not shown");
    // the server already has this text: nothing to wait for
    expect(await observer.afterWrite({ path: file, content, kind: "write" }, new AbortController().signal)).toBeUndefined();
    expect(await observer.afterWrite({ path: file, content: "clean\n", kind: "write" }, new AbortController().signal)).toBeUndefined();
    // edits are checked only with lsp.diagnosticsOnEdit
    expect(await observer.afterWrite({ path: file, content: "ERROR\n", kind: "edit" }, new AbortController().signal)).toBeUndefined();
    expect(await observer.afterWrite({ path: path.join(cwd, "c.txt"), content: "ERROR\n", kind: "write" }, new AbortController().signal)).toBeUndefined();
  });

  it("a file read starts its server in the background, with the file open", async () => {
    const { cwd, manager, observer, starts } = setUp("normal");
    const file = path.join(cwd, "r.fk");
    observer.afterRead!(file, "ERROR\n");
    observer.afterRead!(path.join(cwd, "other.txt"), "x");
    const instance = manager.instanceFor(file)!;
    await instance.ready(within(10_000));
    await expect.poll(() => instance.textOf(file)).toBe("ERROR\n");
    expect(starts()).toBe(1);
    expect(manager.statuses()[0].status).toBe("running");
  });

  it("formats on write through the server and writes the formatted text", async () => {
    const { cwd, observer } = setUp("normal", { formatOnWrite: true, diagnosticsTimeoutMs: 10_000 });
    const file = path.join(cwd, "f.fk");
    writeFileSync(file, "x fmt y\n");
    const note = await observer.afterWrite({ path: file, content: "x fmt y\n", kind: "write" }, new AbortController().signal);
    expect(note).toBe("Formatted by fake.");
    expect(readFileSync(file, "utf8")).toBe("x FMT y\n");
  });
});

describe("reload", () => {
  it("stops a server; the next use of its files starts a fresh one", async () => {
    const { cwd, manager, starts } = setUp("normal");
    const file = path.join(cwd, "a.fk");
    await checkFile(manager, file, "x\n", within(10_000));
    const first = manager.instanceFor(file)!;
    await manager.reload(first);
    expect(manager.statuses()[0]).toMatchObject({ status: "idle" });
    expect(manager.statuses()[0].root).toBeUndefined();
    const again = await checkFile(manager, file, "ERROR\n", within(10_000));
    expect(again.kind === "diagnostics" && again.diagnostics).toHaveLength(1);
    expect(manager.instanceFor(file)).not.toBe(first);
    expect(starts()).toBe(2);
  });
});

describe("servers that misbehave", () => {
  it("a server that never answers costs the caller its own time limit, and is reported as starting", async () => {
    const { cwd, manager, observer } = setUp("hang", { diagnosticsTimeoutMs: 300 });
    const started = Date.now();
    const note = await observer.afterWrite({ path: path.join(cwd, "h.fk"), content: "ERROR\n", kind: "write" }, new AbortController().signal);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(note).toBe("LSP: no diagnostics from fake within 300 ms.");
    expect(manager.statuses()[0]).toMatchObject({ status: "starting", pid: expect.any(Number) });
  });

  it("a server that answers nothing after initialize is bounded the same way", async () => {
    const { cwd, manager } = setUp("mute");
    expect(await checkFile(manager, path.join(cwd, "m.fk"), "ERROR\n", within(1_500))).toEqual({ kind: "timeout", server: "fake" });
    expect(manager.statuses()[0].status).toBe("running");
  });

  it("a crashed server restarts on its next use, at most once a minute, and says so", async () => {
    let clock = 1_000_000;
    const { cwd, manager, starts } = setUp("crash", {}, () => clock);
    const file = path.join(cwd, "c.fk");
    const first = await checkFile(manager, file, "x\n", within(10_000));
    expect(first).toMatchObject({ kind: "error", message: expect.stringMatching(/^exited with code 3: fake server: crashing on purpose/) });
    expect(manager.statuses()[0]).toMatchObject({ status: "crashed", error: expect.stringContaining("exited with code 3") });
    // the next use restarts it (it crashes again)
    expect(await checkFile(manager, file, "y\n", within(10_000))).toMatchObject({ kind: "error" });
    expect(starts()).toBe(2);
    expect(manager.statuses()[0]).toMatchObject({ status: "crashed", restarts: 1 });
    // within the minute: no third start
    const refused = await checkFile(manager, file, "z\n", within(10_000));
    expect(refused).toMatchObject({ kind: "error", message: expect.stringMatching(/restarted at most once a minute \(next try in \d+ s\)/) });
    expect(starts()).toBe(2);
    expect(manager.statuses()[0]).toMatchObject({ status: "failed", restarts: 1 });
    // a minute later it is tried again
    clock += 61_000;
    await checkFile(manager, file, "w\n", within(10_000));
    expect(starts()).toBe(3);
    expect(manager.statuses()[0]).toMatchObject({ restarts: 2 });
  });
});

describe("statuses", () => {
  it("says why a server is not used: its command is missing, or it is disabled", () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "pith-lsp-"));
    const settings = { servers: { gopls: { disabled: true }, mine: { command: "no-such-lsp-xyz", fileTypes: [".xyz"] } } };
    const manager = new LspManager({ cwd, plans: planServers(settings, "/nonexistent", cwd), processId: null, line: () => ({ file: "x", args: [] }) });
    const byName = new Map(manager.statuses().map((s) => [s.name, s]));
    expect(byName.get("mine")).toEqual({ name: "mine", language: "xyz", command: "no-such-lsp-xyz", status: "unavailable", error: "no-such-lsp-xyz is not on PATH" });
    expect(byName.get("gopls")).toMatchObject({ status: "disabled", error: "lsp.servers.gopls.disabled is set" });
    expect(byName.get("typescript-language-server")).toMatchObject({ language: "typescript", status: "unavailable", error: "typescript-language-server is not on PATH" });
    expect(manager.instanceFor(path.join(cwd, "a.ts"))).toBeUndefined();
  });
});
