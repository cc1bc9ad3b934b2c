// The reference's and pi's host libraries can start pith. xcsh-rpc (the
// reference's Python client) builds `--mode rpc [--provider P] [--model M] [--session-dir D]
// [--thinking T] [--append-system-prompt S] [--provider-session-id I] [--tools a,b | --no-tools]
// [--no-session] [--no-skills] [--no-rules] [--no-title]` (`--no-title` by default); pi's
// RpcClient passes `--mode rpc --provider P --model M`; pi-acp passes `--mode rpc --no-themes
// [--session F]`. pith is launched here with exactly those command lines.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeRequest } from "../support/fake-llm-server.js";
import { offeredTools } from "../support/offered-tools.js";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

/** The options of xcsh-rpc's RpcClient that shape its command line. */
interface XcshRpcOptions {
  provider?: string;
  model?: string;
  sessionDir?: string;
  thinking?: string;
  appendSystemPrompt?: string;
  providerSessionId?: string;
  tools?: string[];
  noSession?: boolean;
  noSkills?: boolean;
  noRules?: boolean;
  /** Unset: the client's RPC default, which passes `--no-title`. */
  noTitle?: boolean;
}

/** The arguments xcsh-rpc puts after its executable, in its order. */
function xcshRpcArgv(o: XcshRpcOptions): string[] {
  const argv = ["--mode", "rpc"];
  const valued: [string, string | undefined][] = [
    ["--provider", o.provider],
    ["--model", o.model],
    ["--session-dir", o.sessionDir],
    ["--thinking", o.thinking],
    ["--append-system-prompt", o.appendSystemPrompt],
    ["--provider-session-id", o.providerSessionId],
  ];
  for (const [flag, value] of valued) if (value !== undefined) argv.push(flag, value);
  if (o.tools) argv.push(...(o.tools.length === 0 ? ["--no-tools"] : ["--tools", o.tools.join(",")]));
  if (o.noSession) argv.push("--no-session");
  if (o.noSkills) argv.push("--no-skills");
  if (o.noRules) argv.push("--no-rules");
  if (o.noTitle ?? true) argv.push("--no-title");
  return argv;
}

const TITLE_EXTENSION = `
export default function titles(pi) {
  pi.registerCommand("title", { description: "Sets the title", handler: async (args, ctx) => { ctx.ui.setTitle(args); ctx.ui.notify("title-done"); } });
}
`;
const RULE = ["---", 'condition: "forbidden_word"', "---", "Never write the forbidden word.", ""].join("\n");

interface Launch {
  argv: string[];
  env?: Record<string, string>;
  home?: string;
}

async function launch({ argv, env, home }: Launch): Promise<Pith> {
  const pithHome = home ?? tempDir("pith-home-");
  const models = fakeModelsJson(llm.url) as { providers: Record<string, unknown> };
  // compat.promptCacheKey: a server other than api.openai.com gets prompt_cache_key only when asked
  models.providers["fake-responses"] = { baseUrl: llm.url, api: "openai-responses", apiKey: "k", compat: { promptCacheKey: true }, models: [{ id: "fake-resp", name: "R", input: ["text"], contextWindow: 100000, maxTokens: 1000 }] };
  const p = await Pith.start({ pithHome, env, modelsJson: models, argv });
  open.push(p);
  return p;
}

/** One prompt against the fake chat server; resolves with the request it received and the frames. */
async function exchange(p: Pith, text = "hello"): Promise<{ request: FakeRequest; frames: Frame[] }> {
  const before = llm.requests.length;
  llm.enqueue({ text });
  const frames = await p.promptAndWait("say something");
  const request = llm.requests.slice(before).find((r) => r.method === "POST") as FakeRequest;
  return { request, frames };
}

const FAKE = { provider: "fake-openai", model: "fake-gpt" };
const toolNames = (r: FakeRequest) => ((r.body.tools ?? []) as Frame[]).map((t) => t.function?.name ?? t.name);

describe("launcher command lines", () => {
  it("pith started with every flag of the launchers' list answers get_state and runs a prompt", async () => {
    const sessionDir = tempDir("pith-sessions-");
    const argv = [
      ...xcshRpcArgv({ ...FAKE, sessionDir, thinking: "high", appendSystemPrompt: "APPENDED", providerSessionId: "cache-1", tools: ["read", "bash"], noSession: true, noSkills: true, noRules: true }),
      "--no-themes",
    ];
    const p = await launch({ argv });
    const state = await p.request({ type: "get_state" });
    expect(state.success).toBe(true);
    expect(state.data).toMatchObject({ model: { provider: "fake-openai", id: "fake-gpt" }, thinkingLevel: "high", isStreaming: false });
    const { request } = await exchange(p);
    expect(toolNames(request)).toEqual(["read", "bash"]);
    expect(p.stderr.split("\n").filter((l) => l.includes("--no-themes"))).toEqual(["Note: --no-themes has no effect (pith has no themes)"]);
    expect(await p.close()).toBe(0);
  });

  it("xcsh-rpc's default command line (and with no_session) starts pith and runs a prompt", async () => {
    for (const options of [FAKE, { ...FAKE, noSession: true }]) {
      const argv = xcshRpcArgv(options);
      expect(argv.slice(-1)).toEqual(["--no-title"]);
      const p = await launch({ argv });
      expect((await p.request({ type: "get_state" })).success).toBe(true);
      const { frames } = await exchange(p, "default works");
      const reply = frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").at(-1);
      expect(reply?.message.content).toEqual([{ type: "text", text: "default works" }]);
      expect(p.stderr).not.toMatch(/Unknown option/);
      expect(await p.close()).toBe(0);
    }
  });

  it("pi's RpcClient and pi-acp command lines start pith", async () => {
    const piClient = await launch({ argv: ["--mode", "rpc", "--provider", "fake-openai", "--model", "fake-gpt"] });
    expect((await piClient.request({ type: "get_state" })).success).toBe(true);
    expect(await piClient.close()).toBe(0);
    const file = path.join(tempDir("pith-acp-"), "s.jsonl");
    const piAcp = await launch({ argv: ["--mode", "rpc", "--no-themes", "--session", file] });
    const state = await piAcp.request({ type: "get_state" });
    expect(state.data.sessionFile).toBe(file);
    expect(await piAcp.close()).toBe(0);
  });
});

describe("each xcsh-rpc option", () => {
  const cases: [string, XcshRpcOptions, (p: Pith, state: Frame, request: FakeRequest) => void][] = [
    ["session_dir", { sessionDir: "<dir>" }, (_p, state) => expect(state.sessionFile).toMatch(/pith-option-dir-/)],
    ["thinking", { thinking: "low" }, (_p, state, request) => {
      expect(state.thinkingLevel).toBe("low");
      expect(request.body.reasoning_effort).toBe("low");
    }],
    ["append_system_prompt", { appendSystemPrompt: "APPEND-MARKER-42" }, (_p, _s, request) => expect(JSON.stringify(request.body.messages[0])).toContain("APPEND-MARKER-42")],
    ["provider_session_id", { providerSessionId: "cache-abc" }, (_p, state) => expect(state.sessionId).toEqual(expect.any(String))],
    // Asking for grep brings ast_grep along (astGrep.enabled is on by default)
    ["tools", { tools: ["read", "grep"] }, (_p, _s, request) => expect(offeredTools(request.body)).toMatchObject({ native: ["read", "grep", "call_tool"], deferred: ["ast_grep"] })],
    ["tools=[] (--no-tools)", { tools: [] }, (_p, _s, request) => expect(request.body.tools).toBeUndefined()],
    ["no_session", { noSession: true }, (_p, state) => expect(state.sessionFile).toBeUndefined()],
    ["no_skills", { noSkills: true }, (_p, state) => expect(state.isStreaming).toBe(false)],
    ["no_title=False", { noTitle: false }, (p) => expect(p.stderr).not.toMatch(/Unknown option/)],
  ];
  for (const [name, options, check] of cases) {
    it(`${name}: pith starts, answers get_state and runs a prompt`, async () => {
      const resolved = options.sessionDir ? { ...options, sessionDir: tempDir("pith-option-dir-") } : options;
      const argv = xcshRpcArgv({ ...FAKE, ...resolved });
      const p = await launch({ argv });
      const state = await p.request({ type: "get_state" });
      expect(state.success).toBe(true);
      const { request } = await exchange(p);
      check(p, state.data, request);
      expect(await p.close()).toBe(0);
    });
  }

  it("no_rules: rule files are not loaded, so a matching reply is not interrupted", async () => {
    for (const noRules of [false, true]) {
      const home = tempDir("pith-home-");
      mkdirSync(path.join(home, "rules"), { recursive: true });
      writeFileSync(path.join(home, "rules", "no-forbidden.md"), RULE);
      const p = await launch({ argv: xcshRpcArgv({ ...FAKE, noRules }), home });
      const before = llm.requests.length;
      llm.enqueue({ text: ["I will say forbidden_", "word now"] });
      if (!noRules) llm.enqueue({ text: "said the word" }); // the request re-issued after the rule cut the stream
      const frames = await p.promptAndWait("say it");
      expect(frames.filter((f) => f.type === "ttsr_triggered")).toHaveLength(noRules ? 0 : 1);
      expect(llm.requests.slice(before).filter((r) => r.method === "POST")).toHaveLength(noRules ? 1 : 2);
      expect(await p.close()).toBe(0);
    }
  });

  it("no_title (the default): no setTitle request even when PITH_RPC_EMIT_TITLE asks for them", async () => {
    const extension = path.join(tempDir("pith-ext-"), "titles.ts");
    writeFileSync(extension, TITLE_EXTENSION);
    for (const noTitle of [true, false]) {
      const p = await launch({ argv: [...xcshRpcArgv({ ...FAKE, noTitle }), "-e", extension], env: { PITH_RPC_EMIT_TITLE: "1" } });
      const from = p.frames.length;
      expect((await p.request({ type: "prompt", message: "/title Hello" })).success).toBe(true);
      await p.waitFor((f) => f.type === "extension_ui_request" && f.method === "notify" && f.message === "title-done", 10_000, from);
      const titles = p.events("extension_ui_request", from).filter((f) => f.method === "setTitle");
      expect(titles.map((f) => f.title)).toEqual(noTitle ? [] : ["Hello"]);
      expect(await p.close()).toBe(0);
    }
  });

  it("provider_session_id is the prompt-cache key of every model request (default: the session id)", async () => {
    for (const id of ["cache-xyz", undefined]) {
      const p = await launch({ argv: xcshRpcArgv({ provider: "fake-responses", model: "fake-resp", providerSessionId: id }) });
      const state = await p.request({ type: "get_state" });
      const before = llm.requests.length;
      await p.promptAndWait("cache me"); // nothing is scripted: the reply is an error, the request is what counts
      const request = llm.requests.slice(before).find((r) => r.method === "POST" && r.path.endsWith("/responses")) as FakeRequest;
      expect(request.body.prompt_cache_key).toBe(id ?? state.data.sessionId);
      expect(await p.close()).toBe(0);
    }
  });
});
