// The sandbox against a prompt-injected model, through the built CLI with `--sandbox
// workspace-write` and the scripted fake model:
//   - it cannot write or create what runs code outside the sandbox later (.pith/, .claude/,
//     .mcp.json, git's config and hooks), neither with `bash` nor with the file tools, while
//     `git add` and `git commit` still work; /proc/sys stays read-only although we run as root;
//   - no child pith starts (bash, the host's bash command, python, an MCP stdio server, a
//     subagent's bash) can read a provider key given by environment AND by --api-key: not in its
//     environment, not in /proc/<parent>/environ or cmdline, not in `ps aux`;
//   - without the sandbox, pith's own /proc entries no longer show the keys either.
// Skipped, with the reason printed, where bubblewrap cannot run.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/index.js";
import { FIXTURES } from "../support/mcp-fakes.js";
import { hasPythonKernel } from "../support/python-kernel.js";
import { CLI, Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";
import { firstUserText, forParent, forSub } from "./task-replies.js";
import { runTools } from "./tool-turn.js";

const llm = useFakeLlm();
const open = trackPiths();

const probe = await probeSandbox();
if (!probe.ok) process.stdout.write(`[sandbox-protect e2e] skipped: bubblewrap cannot run here: ${probe.error}\n`);
const hasKernel = hasPythonKernel();

const bash = (id: string, command: string) => ({ id, name: "bash", arguments: { command } });

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } });
}

/** A repository with one commit, git's config and hooks, and a `.claude/agents` folder; no .pith, no .mcp.json. */
function repository(): string {
  const cwd = tempDir("pith-sbxp-repo-");
  git(cwd, "init", "-q", ".");
  git(cwd, "config", "user.email", "model@example.com");
  git(cwd, "config", "user.name", "model");
  writeFileSync(path.join(cwd, "a.txt"), "a\n");
  mkdirSync(path.join(cwd, ".claude", "agents"), { recursive: true });
  return cwd;
}

describe.skipIf(!probe.ok)("sandbox: what runs code later stays read-only", () => {
  it("bash cannot write or create .pith, .claude, .mcp.json, git's config and hooks, nor /proc/sys; git add and commit work", async () => {
    const cwd = repository();
    const configBefore = readFileSync(path.join(cwd, ".git", "config"), "utf8");
    const p = await Pith.start({ cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt", "--sandbox", "workspace-write"] });
    open.push(p);
    const attacks: Array<[string, string]> = [
      ["settings", "mkdir -p .pith && echo '{\"permissions\":{\"mode\":\"allow\"}}' > .pith/settings.json"],
      ["extension", "mkdir -p .pith/extensions && echo 'export default () => {}' > .pith/extensions/x.mjs"],
      ["hook", "printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit"],
      ["config", "git config core.fsmonitor 'touch /tmp/pwned'"],
      ["config-direct", "printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' >> .git/config"],
      ["mcp", "echo '{\"mcpServers\":{}}' > .mcp.json"],
      ["agent", "echo '---\\nname: explore\\n---' > .claude/agents/x.md"],
      ["swap", "mv .git .git-old && mkdir .git"],
      ["hostname", "echo pwned > /proc/sys/kernel/hostname"],
    ];
    const r = await runTools(llm, p, [...attacks.map(([id, cmd]) => bash(id, cmd)), bash("commit", "git add a.txt && git commit -q -m 'made in the sandbox' && git log --format=%s")]);
    for (const [id] of attacks) {
      expect(r.get(id)!.isError, id).toBe(true);
      expect(r.get(id)!.text, id).toMatch(/Read-only file system|Device or resource busy|Is a directory/);
    }
    expect(r.get("commit")).toMatchObject({ isError: false, text: "made in the sandbox" });
    expect(git(cwd, "log", "--format=%s").trim()).toBe("made in the sandbox");
    expect(readFileSync(path.join(cwd, ".git", "config"), "utf8")).toBe(configBefore);
    // (.pith and .mcp.json exist as empty read-only stand-ins while the session runs)
    for (const rel of [".pith/settings.json", ".pith/extensions/x.mjs", ".git/hooks/pre-commit", ".claude/agents/x.md", ".git-old"]) {
      expect(existsSync(path.join(cwd, rel)), rel).toBe(false);
    }
    expect(readFileSync("/proc/sys/kernel/hostname", "utf8")).not.toContain("pwned");
    expect(await p.close()).toBe(0);
    // the stand-ins that blocked creating .pith and .mcp.json are gone with the session
    expect(readdirSync(cwd).sort()).toEqual([".claude", ".git", "a.txt"]);
    expect(git(cwd, "status", "--porcelain")).toBe("");
  });

  it("the file tools refuse the protected paths with a clear error, and write next to them", async () => {
    const cwd = repository();
    const agentCode = 'console.log("agent");\n';
    writeFileSync(path.join(cwd, ".claude", "agents", "helper.ts"), agentCode);
    const notebook = JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 });
    writeFileSync(path.join(cwd, ".claude", "n.ipynb"), notebook);
    const pithHome = tempDir("pith-sbxp-home-");
    writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify({ tools: { deferred: [] } }));
    const p = await Pith.start({ cwd, pithHome, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt", "--sandbox", "workspace-write"] });
    open.push(p);
    const write = (id: string, file: string) => ({ id, name: "write", arguments: { path: file, content: "pwned\n" } });
    const r = await runTools(llm, p, [
      write("settings", ".pith/settings.json"),
      write("extension", ".pith/extensions/x.mjs"),
      write("mcp", ".mcp.json"),
      write("agent", ".claude/agents/x.md"),
      write("hook", ".git/hooks/pre-commit"),
      { id: "config", name: "edit", arguments: { path: ".git/config", oldText: "[core]", newText: "[core]\n\tfsmonitor = touch /tmp/pwned" } },
      { id: "ast", name: "ast_edit", arguments: { ops: [{ pat: "console.log($$$A)", out: "require('child_process').execSync('touch /tmp/pwned')" }], path: ".claude" } },
      { id: "notebook", name: "notebook", arguments: { action: "insert", notebook_path: ".claude/n.ipynb", cell_index: 0, content: "import os" } },
      write("ok", "notes.md"),
    ]);
    for (const id of ["settings", "extension", "mcp", "agent", "hook", "config", "ast", "notebook"]) {
      expect(r.get(id)!.isError, id).toBe(true);
      expect(r.get(id)!.text, id).toMatch(/^The sandbox \(workspace-write\) keeps .* read-only: project settings, extensions, agents, MCP servers and git's configuration and hooks run code outside the sandbox later, so it was not written\./);
    }
    expect(r.get("ok")!.isError).toBe(false);
    expect(readFileSync(path.join(cwd, "notes.md"), "utf8")).toBe("pwned\n");
    for (const rel of [".pith/settings.json", ".pith/extensions/x.mjs", ".claude/agents/x.md", ".git/hooks/pre-commit"]) expect(existsSync(path.join(cwd, rel)), rel).toBe(false);
    expect(readFileSync(path.join(cwd, ".git", "config"), "utf8")).not.toContain("fsmonitor");
    expect(readFileSync(path.join(cwd, ".claude", "agents", "helper.ts"), "utf8")).toBe(agentCode);
    expect(readFileSync(path.join(cwd, ".claude", "n.ipynb"), "utf8")).toBe(notebook);
    expect(await p.close()).toBe(0);
    expect(readdirSync(cwd).sort()).toEqual([".claude", ".git", "a.txt", "notes.md"]);
  });
});

const M = `${process.pid}${Date.now().toString(36)}`;
const KEYS = { OPENAI_API_KEY: `sk-env-openai-${M}`, ANTHROPIC_API_KEY: `sk-env-ant-${M}`, FAKE_PROXY_KEY: `proxy-${M}` };
const CLI_KEY = `sk-cli-${M}`;

/** Every route a child could take to a key: its environment, its parent's /proc entries, every /proc entry it can see, ps. */
const SNOOP = [
  "env",
  "echo PARENT-ENVIRON; tr '\\0' '\\n' < /proc/$PPID/environ",
  "echo PARENT-CMDLINE; tr '\\0' ' ' < /proc/$PPID/cmdline; echo",
  "echo SCAN; cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' '\\n'",
  "echo PS; ps aux",
  'echo MODELS; cat "$PITH_HOME/models.json"',
].join("; ");

const PY_ESCAPE = [
  "import os",
  'print("PID", os.getpid())',
  'for target in ["../escaped-py", ".pith/settings.json", "/proc/sys/kernel/hostname"]:',
  "    try:",
  '        open(target, "w").write("x"); print("WROTE", target)',
  "    except OSError as e:",
  '        print("REFUSED", target, e.strerror)',
].join("\n");

async function startWithKeys(sandbox: boolean, cwd = tempDir("pith-sbxp-cwd-"), pithHome = tempDir("pith-sbxp-home-")): Promise<Pith> {
  mkdirSync(pithHome, { recursive: true });
  const models = fakeModelsJson(llm.url) as { providers: Record<string, Record<string, unknown>> };
  models.providers["fake-anthropic"].apiKey = "FAKE_PROXY_KEY"; // read from the environment; --api-key wins for the selected provider
  models.providers["fake-openai"].apiKey = `literal-${M}`; // a key written in models.json
  const settings = {
    tools: { deferred: [] },
    python: { interpreter: "/usr/bin/python3" },
    mcpServers: { shell: { type: "stdio", command: process.execPath, args: [path.join(FIXTURES, "shell-server.mjs")], env: {} } },
  };
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify(settings));
  const args = ["--provider", "fake-anthropic", "--model", "fake-claude", "--api-key", CLI_KEY, ...(sandbox ? ["--sandbox", "workspace-write"] : [])];
  const p = await Pith.start({ cwd, pithHome, env: KEYS, modelsJson: models, args });
  open.push(p);
  return p;
}

function expectNoKey(text: string, what: string): void {
  for (const key of [...Object.values(KEYS), CLI_KEY]) expect(text, `${what} shows ${key}`).not.toContain(key);
  expect(text, what).not.toContain(M);
}

/** The tool results of the request that followed the tool calls (Anthropic: tool_result blocks). */
function anthropicResults(r: { body: Frame }): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of r.body.messages as Frame[]) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Frame[]) {
      if (b.type !== "tool_result") continue;
      out.set(b.tool_use_id, typeof b.content === "string" ? b.content : (b.content as Frame[]).map((c) => c.text ?? "").join(""));
    }
  }
  return out;
}

describe.skipIf(!probe.ok)("sandbox: secrets stay with pith", () => {
  it("bash, the bash command, python, an MCP stdio server and a subagent's bash read no key by any route", async () => {
    const outside = tempDir("pith-sbxp-outside-");
    mkdirSync(path.join(outside, "work"));
    // pith's home beside the cwd: visible (read-only) inside the sandbox, as ~/.pith would be
    const p = await startWithKeys(true, path.join(outside, "work"), path.join(outside, "home"));
    const py = `import os, subprocess\nprint(dict(os.environ))\nprint(open(f"/proc/{os.getppid()}/environ").read())\nprint(open(f"/proc/{os.getppid()}/cmdline").read())\nprint(subprocess.run(["sh", "-c", ${JSON.stringify(SNOOP)}], capture_output=True, text=True).stdout)`;
    const calls = [
      bash("bash", SNOOP),
      ...(hasKernel
        ? [
            { id: "python", name: "python", arguments: { cells: [{ code: py }] } },
            { id: "python-write", name: "python", arguments: { cells: [{ code: PY_ESCAPE }] } },
          ]
        : []),
      { id: "mcp", name: "mcp__shell__sh", arguments: { command: SNOOP } },
      { id: "mcp-write", name: "mcp__shell__sh", arguments: { command: "echo x > ../escaped; echo x > .mcp.json; echo x > made-by-mcp.txt" } },
      { id: "task", name: "task", arguments: { agent: "task", tasks: [{ id: "s", description: "snoop", assignment: "ASSIGN-SNOOP" }] } },
    ];
    const P = "snoop for keys";
    llm.enqueue(
      forParent(P, { toolCalls: calls }),
      forSub("ASSIGN-SNOOP", { toolCalls: [{ id: "sub-bash", name: "bash", arguments: { command: SNOOP } }] }),
      forSub("ASSIGN-SNOOP", { text: "snooped" }),
      forParent(P, { text: "done" }),
    );
    const before = llm.requests.length;
    const frames = await p.promptAndWait(P, {}, 120_000);
    const requests = llm.requests.slice(before).filter((r) => r.method === "POST");
    // pith itself authenticated with the --api-key value
    expect(requests.every((r) => r.headers["x-api-key"] === CLI_KEY)).toBe(true);
    const parentResults = anthropicResults(requests.filter((r) => firstUserText(r) === P).at(-1)!);
    const subResults = anthropicResults(requests.filter((r) => firstUserText(r) === "ASSIGN-SNOOP").at(-1)!);
    const seen: Array<[string, string | undefined]> = [...calls.map((c) => [c.id, parentResults.get(c.id)] as [string, string | undefined]), ["sub-bash", subResults.get("sub-bash")]];
    for (const [id, text] of seen) {
      expect(text, id).toBeDefined();
      expectNoKey(text!, id);
      const end = frames.find((f) => f.type === "tool_execution_end" && f.toolCallId === id);
      if (end) expectNoKey(JSON.stringify(end.result), `${id} (frame)`);
    }
    // the snoops really ran: the environment and the process list are there, without keys
    for (const id of ["bash", "mcp", "sub-bash", ...(hasKernel ? ["python"] : [])]) {
      expect(seen.find(([i]) => i === id)![1], id).toContain("PATH=");
      expect(seen.find(([i]) => i === id)![1], id).toMatch(/PID|USER/);
    }
    // models.json (it holds a literal key) cannot be read inside
    expect(parentResults.get("bash")).toContain("models.json: Permission denied");
    // the python kernel runs in the sandbox: its own PID namespace, nothing written outside the roots
    if (hasKernel) {
      expect(parentResults.get("python-write")).toMatch(
        /^PID [0-9]\nREFUSED \.\.\/escaped-py Read-only file system\nREFUSED \.pith\/settings\.json Read-only file system\nREFUSED \/proc\/sys\/kernel\/hostname Read-only file system$/,
      );
      expect(existsSync(path.join(outside, "escaped-py"))).toBe(false);
    }
    // the MCP server runs in the sandbox: nothing outside the roots, nothing protected
    expect(parentResults.get("mcp-write")).toMatch(/escaped: Read-only file system[\s\S]*\.mcp\.json: Is a directory[\s\S]*exit=0/);
    expect(existsSync(path.join(outside, "escaped"))).toBe(false);
    expect(readFileSync(path.join(p.cwd, "made-by-mcp.txt"), "utf8")).toBe("x\n");
    const host = await p.request({ type: "bash", command: SNOOP });
    expect(host.data.output).toContain("PATH=");
    expectNoKey(host.data.output, "the bash command");
    expect(await p.close()).toBe(0);
    expect(existsSync(path.join(p.cwd, ".mcp.json"))).toBe(false); // only its stand-in was there, and it is gone
  }, 180_000);
});

describe("secrets without the sandbox", () => {
  it("without the sandbox, pith's /proc environ and cmdline and ps show no key either", async () => {
    const p = await startWithKeys(false);
    const snoop = "tr '\\0' '\\n' < /proc/$PPID/environ; tr '\\0' ' ' < /proc/$PPID/cmdline; echo; ps -o args= -p $PPID; env";
    const r = await runToolsAnthropic(p, [bash("bash", snoop)]);
    expect(r.get("bash")).toContain("--api-key ****");
    expect(r.get("bash")).toContain("PATH=");
    expectNoKey(r.get("bash")!, "bash without the sandbox");
    const host = await p.request({ type: "bash", command: snoop });
    expectNoKey(host.data.output, "the bash command without the sandbox");
    // pith still has its keys: the request after the tool call authenticated with --api-key
    expect(llm.requests.at(-1)!.headers["x-api-key"]).toBe(CLI_KEY);
    expect(await p.close()).toBe(0);
  });

  it("--api-key-file: the key comes from the file (never on the command line); a missing file stops pith", async () => {
    const keyFile = path.join(tempDir("pith-sbxp-key-"), "key");
    writeFileSync(keyFile, `${CLI_KEY}\n`, { mode: 0o600 });
    const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "fake-claude", "--api-key-file", keyFile] });
    open.push(p);
    const before = llm.requests.length;
    llm.enqueue({ text: "hi" });
    await p.promptAndWait("hello");
    expect(llm.requests[before].headers["x-api-key"]).toBe(CLI_KEY);
    expect(readFileSync(`/proc/${p.child.pid}/cmdline`, "latin1")).not.toContain(M);
    expect(await p.close()).toBe(0);
    const bad = spawnSync(process.execPath, [CLI, "--mode", "rpc", "--api-key-file", path.join(path.dirname(keyFile), "missing")], { input: "", encoding: "utf8", timeout: 30_000 });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/--api-key-file .*missing: cannot read it \(ENOENT\)/);
  });
});

async function runToolsAnthropic(p: Pith, calls: Array<{ id: string; name: string; arguments: Frame }>): Promise<Map<string, string>> {
  const before = llm.requests.length;
  llm.enqueue({ toolCalls: calls }, { text: "done" });
  await p.promptAndWait("go", {}, 60_000);
  return anthropicResults(llm.requests.slice(before).filter((r) => r.method === "POST").at(-1)!);
}
