// The permission gate inside a session: extension `tool_call` hooks see a call before the
// rules (a blocked call never asks), the dialog port gets the call, and with no port an ask
// is denied ("no one to ask").
import { describe, expect, it } from "vitest";
import { sessionWiring } from "./session-wiring.js";
import { fakeTool, scriptedStream, textOf, type Reply } from "../../test/support/agent.js";
import { createExtensionRuntime } from "../extensions/api.js";
import { loadExtensionFactory, type LoadedExtensions } from "../extensions/loader.js";
import { recordingUi } from "../../test/support/extensions.js";
import type { ExtensionAPI } from "../extensions/types.js";
import { pathArg } from "../shared/tool-effect.js";
import type { ToolResultMessage } from "../shared/types.js";
import type { PermissionRequest } from "./index.js";
import { testSession, testSettings } from "../../test/support/session.js";

const edits: Reply = {
  steps: [
    { toolCall: { id: "c1", name: "edit", args: { path: "blocked.txt" } } },
    { toolCall: { id: "c2", name: "edit", args: { path: "open.txt" } } },
  ],
};

function build() {
  const { stream } = scriptedStream([edits, { steps: [{ text: "done" }] }]);
  const settings = testSettings((s) => (s.permissions = { mode: "ask-writes", allow: [], ask: [], deny: [] }));
  return testSession({ stream, settings, tools: [fakeTool("edit", { effect: "writes-files", paths: (a) => pathArg(a, "path", "file") })], sessionDir: null });
}

const results = (events: ReturnType<typeof build>["events"]) =>
  events.flatMap((e) => (e.type === "message_end" && e.message.role === "toolResult" ? [e.message as ToolResultMessage] : []));

describe("permission gate in a session", () => {
  it("runs after the extension tool_call hooks: a blocked call never asks", async () => {
    const t = build();
    const order: string[] = [];
    const runtime = createExtensionRuntime(() => undefined);
    const loaded: LoadedExtensions = { runtime, extensions: [] };
    loaded.extensions.push(
      await loadExtensionFactory("/guard.ts", (pi: ExtensionAPI) => {
        pi.on("tool_call", (e) => {
          order.push(`hook ${e.toolCallId}`);
          return e.input.path === "blocked.txt" ? { block: true, reason: "the guard extension blocks it" } : undefined;
        });
      }, runtime),
    );
    await sessionWiring(t.session).extensions.attach(loaded, { ui: recordingUi(), hasUI: true, onError: () => undefined, onPromptError: () => undefined });
    const asked: PermissionRequest[] = [];
    sessionWiring(t.session).permissions.setAsker({
      ask: async (request) => {
        order.push(`ask ${request.permission.toolCallId}`);
        asked.push(request);
        return { value: "Allow once" };
      },
    });
    await t.session.prompt("go").done;
    expect(order).toEqual(["hook c1", "hook c2", "ask c2"]);
    expect(asked[0]).toMatchObject({ title: "Allow edit: open.txt?", permission: { toolName: "edit", rule: "edit(./open.txt)" } });
    const [blocked, open] = results(t.events);
    expect(textOf(blocked)).toBe("the guard extension blocks it");
    expect(textOf(open)).toBe("edit ok");
  });

  it("with no dialog port an ask is denied, saying there is no one to ask", async () => {
    const t = build();
    await t.session.prompt("go").done;
    expect(results(t.events).map((r) => [textOf(r), r.isError])).toEqual([
      ["Permission denied: edit did not run. The call needs approval and there is no one to ask (no host dialog support), so it was denied.", true],
      ["Permission denied: edit did not run. The call needs approval and there is no one to ask (no host dialog support), so it was denied.", true],
    ]);
  });

  it("a dialog port that fails denies the call instead of failing the run", async () => {
    const t = build();
    sessionWiring(t.session).permissions.setAsker({ ask: () => Promise.reject(new Error("host went away")) });
    await t.session.prompt("go").done;
    expect(textOf(results(t.events)[0])).toBe("Permission denied: edit did not run. The approval dialog failed (host went away), so the call was denied.");
  });
});

describe("files another tool changes (approveFileWrites)", () => {
  it("judges each file as an edit of it: the host is asked per file, and one refusal rejects", async () => {
    const t = build();
    const asked: string[] = [];
    sessionWiring(t.session).permissions.setAsker({
      ask: async (request) => {
        asked.push(`${request.permission.toolCallId} ${request.title}`);
        return { value: request.title.includes("b.ts") ? "Deny" : "Allow once" };
      },
    });
    const call = { toolCallId: "lsp1", signal: new AbortController().signal };
    await expect(sessionWiring(t.session).approveFileWrites([`${t.session.cwd}/a.ts`], call)).resolves.toBeUndefined();
    await expect(sessionWiring(t.session).approveFileWrites([`${t.session.cwd}/a.ts`, `${t.session.cwd}/b.ts`], call)).rejects.toThrow(`Permission denied: ${t.session.cwd}/b.ts was not changed (judged as an edit of it).`);
    expect(asked).toEqual([`lsp1 Allow edit: ${t.session.cwd}/a.ts?`, `lsp1 Allow edit: ${t.session.cwd}/a.ts?`, `lsp1 Allow edit: ${t.session.cwd}/b.ts?`]);
  });
});
