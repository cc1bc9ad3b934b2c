// An extension written against pi 0.87.1's published types. test/types/pi-api.test.ts compiles
// it twice: against pi's own declarations (it is a valid pi extension) and with pi's package
// name mapped to pith's extension API (pith offers what it uses, with compatible shapes).
import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

function describeSession(ctx: ExtensionContext): string {
  const sm = ctx.sessionManager;
  const branch = sm.getBranch();
  const leaf: string | null = sm.getLeafId();
  const file: string | undefined = sm.getSessionFile();
  const custom = sm.getEntries().filter((e) => e.type === "custom").length;
  const tree = sm.getTree().length;
  const trusted: boolean = ctx.isProjectTrusted();
  const usage = ctx.getContextUsage();
  const models = ctx.modelRegistry.getAvailable().map((m) => `${m.provider}/${m.id}`);
  return ctx.ui.theme.fg("accent", `${ctx.mode} ${sm.getSessionId()} ${branch.length} ${leaf} ${file} ${custom} ${tree} ${trusted} ${usage?.percent} ${models.join(",")} ${ctx.scopedModels.length} ${ctx.thinkingLevel} ${ctx.signal?.aborted}`);
}

export default function extension(pi: ExtensionAPI): void {
  const off = pi.on("session_start", async (event, ctx) => {
    ctx.ui.notify(`${event.reason} ${event.previousSessionFile ?? ""} ${describeSession(ctx)}`, "info");
  });
  off();
  pi.on("session_shutdown", (event) => {
    void event.reason;
  });
  pi.on("session_before_switch", (event) => (event.reason === "new" ? { cancel: false } : undefined));
  pi.on("before_agent_start", (event) => ({ systemPrompt: `${event.systemPrompt}\nBe brief.` }));
  pi.on("tool_call", (event) => (event.toolName === "bash" ? { block: true, reason: "no shell here" } : undefined));
  pi.on("tool_result", (event) => (event.isError ? { content: [{ type: "text", text: "failed" }] } : undefined));
  pi.on("input", (event) => (event.text === "ping" ? { action: "transform", text: "pong" } : { action: "continue" }));

  pi.registerTool({
    name: "echo",
    label: "Echo",
    description: "Echoes its text",
    parameters: Type.Object({ text: Type.String() }),
    async execute(_id, params, _signal, _onUpdate, ctx) {
      return { content: [{ type: "text", text: `${params.text} in ${ctx.cwd}` }], details: {} };
    },
  });
  pi.registerCommand("where", {
    description: "Where the session is",
    handler: async (_args: string, ctx: ExtensionCommandContext) => {
      await ctx.waitForIdle();
      ctx.ui.setWorkingVisible(false);
      ctx.ui.notify(describeSession(ctx), "info");
      const { cancelled } = await ctx.newSession();
      if (!cancelled) await ctx.reload();
    },
  });
  pi.registerFlag("verbose", { type: "boolean", default: false });
  const verbose = pi.getFlag("verbose") === true;
  pi.registerEntryRenderer("note", () => undefined);
  pi.registerMarkdownTransformer((markdown) => markdown);
  pi.appendEntry("note", { verbose, tools: pi.getAllTools().map((t) => t.name), commands: pi.getCommands().map((c) => c.name) });
  pi.setActiveTools(pi.getActiveTools());
  pi.sendMessage({ customType: "note", content: "hello", display: true }, { deliverAs: "nextTurn" });
  pi.events.on("ping", () => undefined);

  pi.on("resources_discover", (event) => ({ skillPaths: [`${event.cwd}/skills`], promptPaths: [] }));
  pi.on("message_end", (event) => (event.message.role === "assistant" ? { message: event.message } : undefined));
  pi.on("session_before_tree", (event) => (event.preparation.userWantsSummary ? { summary: { summary: `${event.preparation.entriesToSummarize.length} entries` } } : undefined));
  pi.on("agent_before_settle", (event) => (event.outcome === "completed" ? { continue: false } : undefined));
  pi.on("user_bash", () => ({ operations: { exec: async (_command, _cwd, options) => (options.onData(Buffer.from("ok")), { exitCode: 0 }) } }));
  pi.on("model_select", (event) => void event.previousModel);
  pi.on("ui_prompt_start", (event) => void event.kind);
  pi.registerProvider("corp", { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "CORP_KEY", models: [] });
  pi.unregisterProvider("corp");
  pi.registerCommand("fresh", {
    handler: async (_args, ctx) => {
      await ctx.newSession({ setup: async (sm) => void sm.appendCustomEntry("seed", {}), withSession: async (c) => c.sendUserMessage("go") });
      await ctx.navigateTree(ctx.sessionManager.getLeafId() ?? "", { summarize: true });
    },
  });
}
