// The bubblewrap sandbox end to end: with `--sandbox workspace-write` a model's bash
// cannot write outside the cwd nor reach a loopback port, but can build and test inside it; the
// edit/write tools refuse paths leading outside; read-only mode refuses every write; the
// user `bash` command is sandboxed the same way. Skipped, with the reason printed, when
// bubblewrap cannot run here. Refusing to start without bubblewrap is tested everywhere.
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/index.js";
import { CLI, Pith, tempDir, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";
import { endOf, firstUserText, forParent, forSub, resultText, taskCall } from "./task-replies.js";
import { runTools } from "./tool-turn.js";
import { spawnSync } from "node:child_process";

const llm = useFakeLlm();
const open = trackPiths();
const ARGS = ["--provider", "fake-openai", "--model", "fake-gpt"];

const probe = await probeSandbox();
if (!probe.ok) process.stdout.write(`[sandbox e2e] skipped: bubblewrap cannot run here: ${probe.error}\n`);

let port = 0;
let server: Server;
let connections = 0;
beforeAll(async () => {
  server = createServer((s) => {
    s.on("error", () => undefined); // the probe exits right after connecting
    connections++;
    s.end("hello\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function start(mode: "workspace-write" | "read-only", cwd = tempDir("pith-sbx-cwd-")): Promise<Pith> {
  const p = await Pith.start({ cwd, modelsJson: fakeModelsJson(llm.url), args: [...ARGS, "--sandbox", mode] });
  open.push(p);
  return p;
}

const bash = (id: string, command: string) => ({ id, name: "bash", arguments: { command } });
const node = JSON.stringify(process.execPath);
const connectScript = (p: number) =>
  `${node} -e "require('net').connect(${p},'127.0.0.1').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',e=>{console.log('NETERR '+e.code);process.exit(3)})"`;

describe("sandbox: refusing to start", () => {
  it("without a working bubblewrap pith exits 1 before ready, saying how to fix it", () => {
    const home = tempDir("pith-sbx-home-");
    const res = spawnSync(process.execPath, [CLI, "--mode", "rpc", "--sandbox", "workspace-write"], {
      cwd: tempDir("pith-sbx-cwd-"),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home, PITH_BWRAP: "/nonexistent/bwrap" },
      input: "",
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toContain("Cannot start with --sandbox workspace-write");
    expect(res.stderr).toContain("apt-get install bubblewrap");
    expect(res.stderr).toContain("--sandbox off");
  });
});

describe.skipIf(!probe.ok)("sandbox: workspace-write", () => {
  it("the model's bash cannot write outside the cwd nor reach a loopback port, and builds and tests inside it", async () => {
    const parent = tempDir("pith-sbx-parent-");
    const cwd = path.join(parent, "work");
    mkdirSync(cwd);
    writeFileSync(path.join(cwd, "lib.mjs"), "export const add = (a, b) => a + b;\n");
    writeFileSync(path.join(cwd, "test.mjs"), 'import { add } from "./build/lib.mjs";\nif (add(2, 3) !== 5) process.exit(1);\nconsole.log("TESTS PASS");\n');
    const p = await start("workspace-write", cwd);
    const state = (await p.request({ type: "get_state" })).data;
    expect(state.sandbox).toEqual({ mode: "workspace-write", network: false, writableRoots: [] });
    const marker = `pith-sbx-${process.pid}-${Date.now()}`;
    const r = await runTools(llm, p, [
      bash("etc", "touch /etc/pith-sandbox-x"),
      bash("up", "echo escaped > ../x"),
      bash("net", connectScript(port)),
      bash("tmp", `echo private > /tmp/${marker} && cat /tmp/${marker} && echo TMPDIR=$TMPDIR`),
      bash("build", `mkdir -p build && cp lib.mjs build/ && ${node} test.mjs`),
    ]);
    expect(r.get("etc")).toMatchObject({ isError: true, text: expect.stringContaining("Read-only file system") });
    expect(existsSync("/etc/pith-sandbox-x")).toBe(false);
    expect(r.get("up")!.isError).toBe(true);
    expect(existsSync(path.join(parent, "x"))).toBe(false);
    expect(r.get("net")!.text).toMatch(/NETERR (ECONNREFUSED|ENETUNREACH|EACCES)/);
    expect(connections).toBe(0);
    expect(r.get("tmp")).toMatchObject({ isError: false, text: expect.stringContaining("private") });
    expect(r.get("tmp")!.text).toContain("TMPDIR=/tmp");
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
    expect(r.get("build")).toMatchObject({ isError: false, text: expect.stringContaining("TESTS PASS") });
    expect(readFileSync(path.join(cwd, "build", "lib.mjs"), "utf8")).toContain("add");
    expect(await p.close()).toBe(0);
  });

  it("edit and write refuse a symlink pointing outside and a path with .. escaping the cwd", async () => {
    const outside = tempDir("pith-sbx-outside-");
    writeFileSync(path.join(outside, "target.txt"), "outside\n");
    const cwd = tempDir("pith-sbx-cwd-");
    symlinkSync(path.join(outside, "target.txt"), path.join(cwd, "link.txt"));
    writeFileSync(path.join(cwd, "inside.txt"), "inside\n");
    const p = await start("workspace-write", cwd);
    const r = await runTools(llm, p, [
      { id: "link", name: "edit", arguments: { path: "link.txt", oldText: "outside", newText: "pwned" } },
      { id: "dots", name: "write", arguments: { path: `../${path.basename(outside)}/new.txt`, content: "pwned" } },
      { id: "ok", name: "edit", arguments: { path: "inside.txt", oldText: "inside", newText: "changed" } },
    ]);
    expect(r.get("link")).toMatchObject({ isError: true, text: expect.stringContaining("through a symbolic link") });
    expect(r.get("dots")).toMatchObject({ isError: true, text: expect.stringContaining("allows writing only inside") });
    expect(readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("outside\n");
    expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
    expect(r.get("ok")!.isError).toBe(false);
    expect(readFileSync(path.join(cwd, "inside.txt"), "utf8")).toBe("changed\n");
    expect(await p.close()).toBe(0);
  });

  it("a subagent's bash and write run in the parent's sandbox", async () => {
    const parent = tempDir("pith-sbx-parent-");
    const cwd = path.join(parent, "work");
    mkdirSync(cwd);
    // the fake Anthropic API keeps the system prompt apart, so each request's first message is the prompt or the assignment
    const p = await Pith.start({ cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "fake-claude", "--sandbox", "workspace-write"] });
    open.push(p);
    const P = "delegate in the sandbox";
    llm.enqueue(
      forParent(P, taskCall("t1", "task", [["s", "ASSIGN-SBX"]])),
      forSub("ASSIGN-SBX", {
        toolCalls: [
          { id: "up", name: "bash", arguments: { command: "echo escaped > ../x" } },
          { id: "etc", name: "bash", arguments: { command: "touch /etc/pith-sandbox-sub" } },
          { id: "dots", name: "write", arguments: { path: "../y.txt", content: "pwned" } },
          { id: "in", name: "bash", arguments: { command: "echo inside > inside.txt" } },
        ],
      }),
      forSub("ASSIGN-SBX", { text: "sandboxed" }),
      forParent(P, { text: "ok" }),
    );
    const before = llm.requests.length;
    const frames = await p.promptAndWait(P, {}, 60_000);
    // the subagent's second request carries its tool results
    const results = JSON.stringify(llm.requests.slice(before).filter((r) => firstUserText(r) === "ASSIGN-SBX")[1]!.body);
    expect(results).toContain("Read-only file system");
    expect(results).toContain("allows writing only inside");
    expect(existsSync(path.join(parent, "x"))).toBe(false);
    expect(existsSync(path.join(parent, "y.txt"))).toBe(false);
    expect(existsSync("/etc/pith-sandbox-sub")).toBe(false);
    expect(readFileSync(path.join(cwd, "inside.txt"), "utf8")).toBe("inside\n");
    expect(resultText(endOf(frames, "t1"))).toContain("sandboxed");
    expect(await p.close()).toBe(0);
  });

  it("the user bash command runs in the same sandbox and keeps its shell state", async () => {
    const parent = tempDir("pith-sbx-parent-");
    const cwd = path.join(parent, "work");
    mkdirSync(cwd);
    const p = await start("workspace-write", cwd);
    const etc = await p.request({ type: "bash", command: "touch /etc/pith-sandbox-y" });
    expect(etc.data.exitCode).not.toBe(0);
    expect(etc.data.output).toContain("Read-only file system");
    const up = await p.request({ type: "bash", command: "echo escaped > ../y" });
    expect(up.data.exitCode).not.toBe(0);
    expect(existsSync(path.join(parent, "y"))).toBe(false);
    const net = await p.request({ type: "bash", command: connectScript(port) });
    expect(net.data.output).toMatch(/NETERR/);
    const inside = await p.request({ type: "bash", command: "mkdir sub && cd sub && export GREETING=hi && echo made > f.txt" });
    expect(inside.data.exitCode).toBe(0);
    const again = await p.request({ type: "bash", command: "pwd && echo $GREETING && cat f.txt" });
    expect(again.data.output).toContain(`sub\nhi\nmade\n`);
    expect(connections).toBe(0);
    expect(await p.close()).toBe(0);
  });
});

describe.skipIf(!probe.ok)("sandbox: settings and abort", () => {
  it("sandbox.network and sandbox.writableRoots open exactly that; abort_bash still stops a sandboxed command", async () => {
    const cwd = tempDir("pith-sbx-cwd-");
    const extra = tempDir("pith-sbx-root-");
    const other = tempDir("pith-sbx-other-");
    mkdirSync(path.join(cwd, ".pith"));
    writeFileSync(path.join(cwd, ".pith", "settings.json"), JSON.stringify({ sandbox: { mode: "workspace-write", network: true, writableRoots: [extra] } }));
    const p = await Pith.start({ cwd, modelsJson: fakeModelsJson(llm.url), args: [...ARGS, "--trust-project"] });
    open.push(p);
    expect((await p.request({ type: "get_state" })).data.sandbox).toEqual({ mode: "workspace-write", network: true, writableRoots: [extra] });
    const before = connections;
    const net = await p.request({ type: "bash", command: connectScript(port) });
    expect(net.data.output).toContain("CONNECTED");
    expect(connections).toBe(before + 1);
    const root = await p.request({ type: "bash", command: `echo kept > ${extra}/r.txt && echo nope > ${other}/r.txt` });
    expect(root.data.exitCode).not.toBe(0);
    expect(readFileSync(path.join(extra, "r.txt"), "utf8")).toBe("kept\n");
    expect(existsSync(path.join(other, "r.txt"))).toBe(false);
    const from = p.frames.length;
    p.send({ id: "long", type: "bash", command: "sleep 60" });
    // abort_bash is a no-op until the command runs: repeat it until the command answers
    let long: Frame | undefined;
    const answered = p.waitFor((f) => f.type === "response" && f.id === "long", 30_000, from).then((f) => (long = f));
    while (!long) {
      expect((await p.request({ type: "abort_bash" })).success).toBe(true);
      await Promise.race([answered, new Promise((r) => setTimeout(r, 200))]);
    }
    expect(long.data.cancelled).toBe(true);
    expect(long.data.output).toContain("[Command cancelled]");
    expect(await p.close()).toBe(0);
  });
});

describe.skipIf(!probe.ok)("sandbox: clean-up", () => {
  it("the private /tmp and the shell-state folder are removed when pith ends, by EOF or by SIGTERM", async () => {
    const sandboxDirs = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith("pith-sandbox-")));
    for (const stop of ["eof", "sigterm"] as const) {
      const before = sandboxDirs();
      const p = await start("workspace-write");
      await p.request({ type: "bash", command: "echo x > /tmp/scratch" });
      const ours = [...sandboxDirs()].filter((n) => !before.has(n));
      expect(ours.length).toBeGreaterThan(0);
      if (stop === "eof") expect(await p.close()).toBe(0);
      else {
        p.child.kill("SIGTERM");
        await p.exited;
      }
      for (const n of ours) expect(existsSync(path.join(tmpdir(), n)), `${stop}: ${n}`).toBe(false);
    }
  });
});

describe.skipIf(!probe.ok)("sandbox: read-only", () => {
  it("refuses every write: bash, the bash command, edit and write", async () => {
    const cwd = tempDir("pith-sbx-cwd-");
    writeFileSync(path.join(cwd, "a.txt"), "a\n");
    const p = await start("read-only", cwd);
    expect((await p.request({ type: "get_state" })).data.sandbox).toEqual({ mode: "read-only", network: false, writableRoots: [] });
    const r = await runTools(llm, p, [
      bash("sh", "echo x > b.txt"),
      bash("tmp", "echo x > /tmp/pith-ro-probe"),
      bash("read", "cat a.txt"),
      { id: "edit", name: "edit", arguments: { path: "a.txt", oldText: "a", newText: "z" } },
      { id: "write", name: "write", arguments: { path: "c.txt", content: "c" } },
    ]);
    expect(r.get("sh")).toMatchObject({ isError: true, text: expect.stringContaining("Read-only file system") });
    expect(r.get("tmp")!.isError).toBe(true);
    expect(r.get("read")).toMatchObject({ isError: false, text: "a" });
    expect(r.get("edit")).toMatchObject({ isError: true, text: expect.stringContaining("does not allow writing files") });
    expect(r.get("write")!.isError).toBe(true);
    const user = await p.request({ type: "bash", command: "touch d.txt" });
    expect(user.data.exitCode).not.toBe(0);
    for (const f of ["b.txt", "c.txt", "d.txt"]) expect(existsSync(path.join(cwd, f))).toBe(false);
    expect(readFileSync(path.join(cwd, "a.txt"), "utf8")).toBe("a\n");
    expect(await p.close()).toBe(0);
  });
});
