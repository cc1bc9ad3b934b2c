// Permissions end to end: in `ask-writes` a scripted model's `edit` asks through an
// `extension_ui_request` select; the host answers Allow once / Allow always / Deny / cancel /
// nothing until stdin EOF, and the fake model receives the matching tool results. "Allow
// always" is the project's grant: it holds in a new session, after switch_session back and
// after a restart of pith on the same session file.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { Pith, tempDir, trackPiths, useFakeLlm, fakeModelsJson, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

const ARGS = ["--provider", "fake-openai", "--model", "fake-gpt"];

/** A cwd whose project settings turn on `ask-writes`, with a file to edit. */
function project(): string {
  const cwd = tempDir("pith-perm-cwd-");
  mkdirSync(path.join(cwd, ".pith"));
  writeFileSync(path.join(cwd, ".pith", "settings.json"), JSON.stringify({ permissions: { mode: "ask-writes" } }));
  writeFileSync(path.join(cwd, "notes.txt"), "alpha\n");
  return cwd;
}

async function start(cwd: string, pithHome?: string, extra: string[] = []): Promise<Pith> {
  // the test's own folder is trusted: its .pith/settings.json applies
  const p = await Pith.start({ cwd, pithHome, modelsJson: fakeModelsJson(llm.url), args: [...ARGS, "--trust-project", ...extra] });
  open.push(p);
  return p;
}

const edit = (id: string, from: string, to: string) => ({ toolCalls: [{ id, name: "edit", arguments: { path: "notes.txt", oldText: from, newText: to } }] });

/** The text of the tool message answering `toolCallId` in an OpenAI chat request. */
function toolMessage(r: FakeRequest, toolCallId: string): string | undefined {
  const m = (r.body.messages as Frame[]).find((x) => x.role === "tool" && x.tool_call_id === toolCallId);
  if (!m) return undefined;
  return typeof m.content === "string" ? m.content : m.content.map((b: Frame) => b.text ?? "").join("");
}

function lastRequestWith(toolCallId: string, from: number): FakeRequest {
  const reqs = llm.requests.slice(from).filter((r) => r.method === "POST" && toolMessage(r, toolCallId) !== undefined);
  expect(reqs.length, `no request carried the result of ${toolCallId}`).toBeGreaterThan(0);
  return reqs[reqs.length - 1];
}

/** Prompts; answers the one permission dialog with `answer` (a response frame body); waits for idle. */
async function runAnswering(p: Pith, answer: Frame | undefined): Promise<Frame> {
  const from = p.frames.length;
  const res = await p.request({ type: "prompt", message: "edit the notes" });
  expect(res.success).toBe(true);
  const dialog = await p.waitFor((f) => f.type === "extension_ui_request" && f.method === "select", 20_000, from);
  if (answer) p.send({ type: "extension_ui_response", id: dialog.id, ...answer });
  if (answer) await p.waitIdle(30_000, from);
  return dialog;
}

describe("permissions: ask-writes over a real process", () => {
  it("asks before an edit; Allow once runs it and the model sees the success", async () => {
    const p = await start(project());
    const before = llm.requests.length;
    llm.enqueue(edit("t_once", "alpha", "beta"), { text: "edited" });
    const dialog = await runAnswering(p, { value: "Allow once" });
    expect(dialog).toMatchObject({
      title: "Allow edit: notes.txt?",
      options: ["Allow once", "Allow always", "Deny"],
      permission: { toolCallId: "t_once", toolName: "edit", arguments: { path: "notes.txt", oldText: "alpha", newText: "beta" }, rule: "edit(./notes.txt)" },
    });
    expect(readFileSync(path.join(p.cwd, "notes.txt"), "utf8")).toBe("beta\n");
    expect(toolMessage(lastRequestWith("t_once", before), "t_once")).toContain("Successfully replaced");
    expect(await p.close()).toBe(0);
  });

  it("Deny and cancel: the file is untouched and the model is told who denied the call and why", async () => {
    const p = await start(project());
    const before = llm.requests.length;
    llm.enqueue(edit("t_deny", "alpha", "gamma"), { text: "ok, not editing" });
    await runAnswering(p, { value: "Deny" });
    llm.enqueue(edit("t_cancel", "alpha", "delta"), { text: "cancelled, fine" });
    await runAnswering(p, { cancelled: true });
    expect(readFileSync(path.join(p.cwd, "notes.txt"), "utf8")).toBe("alpha\n");
    expect(toolMessage(lastRequestWith("t_deny", before), "t_deny")).toBe("Permission denied: edit did not run. The user denied this call.");
    expect(toolMessage(lastRequestWith("t_cancel", before), "t_cancel")).toBe(
      "Permission denied: edit did not run. The approval dialog was cancelled, so the call was denied.",
    );
    const ends = p.events("tool_execution_end").filter((f) => f.toolCallId === "t_deny" || f.toolCallId === "t_cancel");
    expect(ends.map((f) => f.isError)).toEqual([true, true]);
    expect(await p.close()).toBe(0);
  });

  it("no answer until stdin closes: the call is denied, the run finishes, pith exits 0", async () => {
    const p = await start(project());
    const before = llm.requests.length;
    llm.enqueue(edit("t_eof", "alpha", "omega"), { text: "the host left" });
    await runAnswering(p, undefined);
    expect(await p.close()).toBe(0);
    expect(readFileSync(path.join(p.cwd, "notes.txt"), "utf8")).toBe("alpha\n");
    expect(toolMessage(lastRequestWith("t_eof", before), "t_eof")).toBe(
      "Permission denied: edit did not run. The host closed its input before answering the approval dialog, so the call was denied.",
    );
  });

  it("Allow always holds in a new session, after switch_session back and after a restart on the same session file", async () => {
    const cwd = project();
    const p = await start(cwd);
    llm.enqueue(edit("t_always", "alpha", "one"), { text: "done once" });
    await runAnswering(p, { value: "Allow always" });
    expect(readFileSync(path.join(cwd, "notes.txt"), "utf8")).toBe("one\n");
    const state = (await p.request({ type: "get_state" })).data;
    expect(state.permissions).toMatchObject({ mode: "ask-writes", sessionAllow: ["edit(./notes.txt)"] });
    const file = state.sessionFile as string;

    // a new session of the same project has the rule, and so has the first one switched back to
    expect((await p.request({ type: "new_session" })).success).toBe(true);
    expect((await p.request({ type: "get_state" })).data.permissions.sessionAllow).toEqual(["edit(./notes.txt)"]);
    expect((await p.request({ type: "switch_session", sessionPath: file })).data).toEqual({ cancelled: false });
    llm.enqueue(edit("t_again", "one", "two"), { text: "done twice" });
    const frames = await p.promptAndWait("edit again");
    expect(frames.some((f) => f.type === "extension_ui_request" && f.method === "select")).toBe(false);
    expect(readFileSync(path.join(cwd, "notes.txt"), "utf8")).toBe("two\n");
    expect(await p.close()).toBe(0);

    // a restart on that session file: still allowed
    const q = await start(cwd, p.pithHome, ["--session", file]);
    expect((await q.request({ type: "get_state" })).data.permissions.sessionAllow).toEqual(["edit(./notes.txt)"]);
    llm.enqueue(edit("t_restart", "two", "three"), { text: "done thrice" });
    const after = await q.promptAndWait("and again");
    expect(after.some((f) => f.type === "extension_ui_request" && f.method === "select")).toBe(false);
    expect(readFileSync(path.join(cwd, "notes.txt"), "utf8")).toBe("three\n");
    expect(await q.close()).toBe(0);
  });
});
