// Eight real pi packages from npm, each loaded with `-e <package folder>` by the built CLI and
// driven offline as a host would: the commands and tools it registers must be the ones pi 0.87.1
// registers for the same package, one of its own slash commands must have its effect, a plain
// prompt (scripted provider) must run, and no extension error may appear on stderr or in frames.
//
// The expected lists are pi 0.87.1's own answers: `node scripts/pi-package-lists.mjs` (it needs
// Node 22, which pi requires) runs `node_modules/@earendil-works/pi-coding-agent/dist/cli.js
// --mode rpc -e <package>` with a probe extension, sends `get_commands`, and reads
// `pi.getAllTools()`; pi's own built-in tools and its hidden built-in `/llama` command are left
// out. Commands are `<source>:<name>`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Pith, tempDir, trackPiths, type Frame } from "./harness.js";

const MODULES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules");
const PITH_BUILTIN_TOOLS = new Set(["read", "bash", "edit", "write", "grep", "find", "ls", "todo_write", "ast_grep", "ast_edit", "notebook", "calc", "render_mermaid", "inspect_image", "display_image", "task"]);

interface Case {
  pkg: string;
  commands: string[];
  tools: string[];
  command: string;
  /** The frame that shows the command's effect (waited for after the command was sent). */
  effect(p: Pith): (f: Frame) => boolean;
}

const notify = (re: RegExp) => () => (f: Frame) => f.type === "extension_ui_request" && f.method === "notify" && re.test(f.message);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const CASES: Case[] = [
  {
    pkg: "pi-prompt-template-model",
    commands: ["extension:chain-prompts", "extension:prompt-tool", "skill:skill:prompt-template-authoring"],
    tools: [],
    command: "/prompt-tool",
    effect: notify(/^run-prompt tool is disabled$/),
  },
  {
    pkg: "pi-web-access",
    commands: ["extension:websearch", "extension:curator", "extension:google-account", "extension:search"],
    tools: ["web_search", "source_check", "fetch_content", "get_search_content"],
    command: "/search",
    effect: notify(/^No stored search results$/),
  },
  {
    pkg: "pi-mcp-adapter",
    commands: ["extension:mcp", "extension:pi-mcp", "extension:mcp-auth", "skill:skill:mcp-scripting"],
    tools: ["mcpScript", "mcp"],
    command: "/mcp",
    effect: notify(/^MCP Server Status:[\s\S]*No MCP servers configured/),
  },
  {
    pkg: "pi-subagents",
    commands: [
      "extension:subagents-watchdog", "extension:subagents", "extension:run", "extension:subagent-cost", "extension:subagents-doctor",
      "extension:subagents-inspect-rpc", "extension:subagents-guide", "extension:subagents-refine", "extension:subagents-fleet",
      "extension:subagents-detach", "extension:subagents-stop", "extension:subagents-steer", "extension:prompt-workflow",
      "extension:subagents-models", "extension:subagents-profiles", "extension:subagents-load-profile",
      "extension:subagents-refresh-provider-models", "extension:subagents-generate-profiles", "extension:subagents-check-profile",
      "prompt:council", "prompt:gather-context-and-clarify", "prompt:parallel-cleanup", "prompt:parallel-research",
      "prompt:parallel-review", "prompt:review-loop", "skill:skill:council-mode", "skill:skill:pi-subagents",
    ],
    tools: ["subagent", "bg_wait", "subagent_supervisor"],
    command: "/subagent-cost",
    effect: () => (f) =>
      f.type === "message_end" &&
      f.message.customType === "subagent-slash-text-result" &&
      /^Subagent cost\n[\s\S]*No subagent child usage found in this session/.test(f.message.content),
  },
  {
    pkg: "pi-markdown-preview",
    commands: ["extension:preview", "extension:preview-browser", "extension:preview-pdf", "extension:preview-clear-cache"],
    tools: ["preview_export"],
    command: "/preview-clear-cache",
    // Without PI_CODING_AGENT_DIR the package keeps its cache under ~/.pi (HOME is the test's pith home).
    effect: (p) => notify(new RegExp(`^Cleared preview cache: ${escape(p.pithHome)}/\\.pi/cache/markdown-preview$`))(),
  },
  {
    pkg: "pi-aliases",
    commands: ["extension:clear", "extension:exit"],
    tools: [],
    command: "/clear",
    // A new session: the extensions hear pi's lifecycle, which the probe below reports.
    effect: () => notify(/^lifecycle: session_shutdown:new session_start:new same-manager=true new-id=true$/)(),
  },
  {
    pkg: "pi-mermaid",
    commands: ["extension:pi-mermaid"],
    tools: [],
    command: "/pi-mermaid",
    effect: notify(/./),
  },
  {
    pkg: "@agentuity/pi",
    commands: ["extension:organization", "extension:region"],
    tools: [],
    command: "/region",
    effect: notify(/^No Agentuity regions found\.$/),
  },
];

const open = trackPiths();

// Reports pi's session lifecycle as an extension sees it: shutdown then start, one stable
// sessionManager reading the new session.
const LIFECYCLE_PROBE = `
export default function (pi) {
  const seen = [];
  let manager, firstId;
  pi.on("session_shutdown", (e) => { seen.push("session_shutdown:" + e.reason); });
  pi.on("session_start", (e, ctx) => {
    if (e.reason === "startup") { manager = ctx.sessionManager; firstId = manager.getSessionId(); return; }
    seen.push("session_start:" + e.reason);
    const same = ctx.sessionManager === manager;
    const newId = ctx.sessionManager.getSessionId() !== firstId;
    ctx.ui.notify("lifecycle: " + seen.splice(0).join(" ") + " same-manager=" + same + " new-id=" + newId);
  });
}
`;

async function start(pkg: string): Promise<Pith> {
  const dir = tempDir("pith-pkg-");
  const script = path.join(dir, "script.json");
  writeFileSync(script, JSON.stringify({ replies: [{ text: "Here:\n\n```mermaid\ngraph TD\n  A[Start] --> B[Done]\n```\n" }] }));
  const probe = path.join(dir, "lifecycle-probe.mjs");
  writeFileSync(probe, LIFECYCLE_PROBE);
  const extra = pkg === "pi-aliases" ? ["-e", probe] : [];
  const p = await Pith.start({ args: ["--no-session", "--provider", "scripted", "--model", script, "-e", path.join(MODULES, pkg), ...extra] });
  open.push(p);
  return p;
}

const extensionErrors = (p: Pith) => [...p.frames.filter((f) => f.type === "extension_error"), ...p.stderr.split("\n").filter((l) => l.startsWith("Extension error"))];

describe("pi packages loaded from their folders", () => {
  for (const c of CASES) {
    it(`${c.pkg}: pi's commands and tools, ${c.command}, a plain prompt`, async () => {
      const p = await start(c.pkg);
      // a package's extensions load after `ready`; the first answer waits for them (slow on a busy machine)
      const commands = await p.request({ type: "get_commands" }, 60_000);
      expect(commands.data.commands.map((x: Frame) => `${x.source}:${x.name}`)).toEqual(c.commands);
      const state = await p.request({ type: "get_state" });
      expect(state.data.dumpTools.map((t: Frame) => t.name).filter((n: string) => !PITH_BUILTIN_TOOLS.has(n))).toEqual(c.tools);

      const reply = await p.promptAndWait("Draw the flow.", {}, 60_000);
      const end = reply.find((f) => f.type === "message_end" && f.message.role === "assistant");
      expect(end?.message.stopReason).toBe("stop");
      expect(end?.message.content[0].text).toContain("```mermaid");

      const before = await p.request({ type: "get_state" });
      const from = p.frames.length;
      const answer = await p.request({ type: "prompt", message: c.command }, 60_000);
      expect(answer.success).toBe(true);
      await p.waitFor(c.effect(p), 60_000, from);
      if (c.pkg === "pi-aliases") {
        const after = await p.request({ type: "get_state" });
        expect(after.data.sessionId).not.toBe(before.data.sessionId);
        expect(after.data.messageCount).toBe(0);
      }
      expect(extensionErrors(p)).toEqual([]);
    }, 120_000);
  }
});
