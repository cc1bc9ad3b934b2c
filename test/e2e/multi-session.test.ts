// Many sessions in one process: three sessions with different cwds and models prompt at
// the same time with tool calls; every frame carries the right sessionId; aborting one leaves the
// others running; close_session mid-run; an unknown sessionId fails clearly; a second process
// cannot open a file the first holds. Asserts on the frames and on what the fake LLM received.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeRequest } from "../support/fake-llm-server.js";
import { trackPiths, useFakeLlm, Pith, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

async function ok(p: Pith, cmd: Frame): Promise<any> {
  const res = await p.request(cmd);
  expect(res.success, `${cmd.type}: ${res.error}`).toBe(true);
  return res;
}
const has = (tag: string) => (r: FakeRequest) => JSON.stringify(r.body).includes(tag);
const framesOf = (p: Pith, sessionId: string | undefined, from = 0) => p.frames.slice(from).filter((f) => f.sessionId === sessionId);
const endOf = (p: Pith, sessionId: string | undefined, from: number) =>
  p.waitFor((f) => f.type === "agent_end" && f.sessionId === sessionId, 30_000, from);

function project(name: string): string {
  const dir = tempDir(`pith-${name}-`);
  fs.writeFileSync(path.join(dir, "who.txt"), `this is project ${name}\n`);
  return dir;
}

describe("many sessions in one process", () => {
  it("runs three sessions with their own cwd and model at once, every frame stamped with its sessionId", async () => {
    const a = project("alpha");
    const b = project("beta");
    const c = project("gamma");
    const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), cwd: a, args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    open.push(p);
    const s2 = (await ok(p, { type: "create_session", cwd: b, provider: "fake-anthropic", modelId: "fake-claude" })).data;
    const s3 = (await ok(p, { type: "create_session", cwd: c })).data;
    expect(s2.sessionId).not.toBe(s3.sessionId);
    expect(path.dirname(s2.sessionFile)).toMatch(/--beta|beta/);
    const openList = (await ok(p, { type: "get_open_sessions" })).data.sessions;
    expect(openList.map((s: Frame) => [s.isDefault, s.cwd, s.model.id])).toEqual([
      [true, a, "fake-gpt"],
      [false, b, "fake-claude"],
      [false, c, "fake-gpt"],
    ]);

    const tags: Array<[string | undefined, string]> = [[undefined, "TAG-ONE"], [s2.sessionId, "TAG-TWO"], [s3.sessionId, "TAG-THREE"]];
    for (const [, tag] of tags) {
      llm.enqueue({ match: has(tag), chunkDelayMs: 5, toolCalls: [{ id: `read-${tag}`, name: "read", arguments: { path: "who.txt" } }] });
      llm.enqueue({ match: has(tag), chunkDelayMs: 5, text: ["done ", tag, " with ", "the ", "file"] });
    }
    const from = p.frames.length;
    for (const [sessionId, tag] of tags) p.send({ id: `p-${tag}`, type: "prompt", message: `read who.txt ${tag}`, ...(sessionId ? { sessionId } : {}) });
    await Promise.all(tags.map(([sessionId]) => endOf(p, sessionId, from)));

    for (const [sessionId, tag] of tags) {
      const mine = framesOf(p, sessionId, from);
      // the response to the prompt and every event of the run carry the session's id (none for the first)
      expect(mine.find((f) => f.type === "response")).toMatchObject({ id: `p-${tag}`, success: true });
      const result = mine.find((f) => f.type === "tool_execution_end") as Frame;
      const project = { "TAG-ONE": "alpha", "TAG-TWO": "beta", "TAG-THREE": "gamma" }[tag];
      expect(JSON.stringify(result.result)).toContain(`this is project ${project}`);
      const end = mine.find((f) => f.type === "agent_end") as Frame;
      expect(JSON.stringify(end.messages)).toContain(`done ${tag} with the file`);
      // no frame of this session mentions another session's tag
      for (const [, other] of tags) if (other !== tag) expect(JSON.stringify(mine)).not.toContain(other);
    }
    // the runs overlapped: each session started before another ended
    const idx = (sid: string | undefined, type: string) => p.frames.findIndex((f, i) => i >= from && f.type === type && f.sessionId === sid);
    expect(idx(s2.sessionId, "agent_start")).toBeLessThan(idx(undefined, "agent_end"));
    expect(idx(s3.sessionId, "agent_start")).toBeLessThan(idx(s2.sessionId, "agent_end"));
    // the fake saw each session's model on its own wire
    const anthropic = llm.requests.filter((r) => r.path.endsWith("/messages") && has("TAG-TWO")(r));
    expect(anthropic).toHaveLength(2);
    expect(anthropic.every((r) => r.body.model === "fake-claude")).toBe(true);
    for (const tag of ["TAG-ONE", "TAG-THREE"]) {
      const reqs = llm.requests.filter((r) => r.path.endsWith("/chat/completions") && has(tag)(r));
      expect(reqs).toHaveLength(2);
      expect(reqs.every((r) => r.body.model === "fake-gpt")).toBe(true);
    }

    // aborting one session leaves the others running
    llm.enqueue({ match: has("HANG-TWO"), hang: true, text: "partial" });
    llm.enqueue({ match: has("SLOW-THREE"), chunkDelayMs: 30, text: ["slow ", "but ", "complete ", "reply"] });
    const from2 = p.frames.length;
    p.send({ type: "prompt", message: "HANG-TWO", sessionId: s2.sessionId });
    p.send({ type: "prompt", message: "SLOW-THREE", sessionId: s3.sessionId });
    await p.waitFor((f) => f.type === "message_update" && f.sessionId === s2.sessionId, 15_000, from2);
    await ok(p, { type: "abort", sessionId: s2.sessionId });
    const end3 = await endOf(p, s3.sessionId, from2);
    expect(JSON.stringify(end3.messages)).toContain("slow but complete reply");
    const end2 = framesOf(p, s2.sessionId, from2).find((f) => f.type === "agent_end") as Frame;
    expect(end2.messages.at(-1).stopReason).toBe("aborted");

    // close_session mid-run: the run ends aborted, the file is released, the id is gone
    llm.enqueue({ match: has("HANG-THREE"), hang: true, text: "never finishes" });
    const from3 = p.frames.length;
    p.send({ type: "prompt", message: "HANG-THREE", sessionId: s3.sessionId });
    await p.waitFor((f) => f.type === "message_update" && f.sessionId === s3.sessionId, 15_000, from3);
    const closed = await ok(p, { type: "close_session", sessionId: s3.sessionId });
    const s3End = p.frames.findIndex((f, i) => i >= from3 && f.type === "agent_end" && f.sessionId === s3.sessionId);
    expect(s3End).toBeGreaterThan(-1);
    expect(s3End).toBeLessThan(p.frames.indexOf(closed));
    expect(fs.existsSync(`${s3.sessionFile}.lock`)).toBe(false);
    const gone = await p.request({ type: "get_state", sessionId: s3.sessionId });
    expect(gone).toMatchObject({ success: false, command: "get_state", code: "unknown_session", error: expect.stringContaining(`Session ${s3.sessionId} is closed`) });
    expect((await p.request({ type: "close_session", sessionId: "nope" })).code).toBe("unknown_session");
    expect((await p.request({ type: "close_session" })).error).toMatch(/needs the session/);
    // the first session and the second still answer
    expect((await ok(p, { type: "get_state" })).data.isStreaming).toBe(false);
    expect((await ok(p, { type: "get_state", sessionId: s2.sessionId })).data.sessionFile).toBe(s2.sessionFile);

    // a second process cannot open a file the first holds
    const q = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    open.push(q);
    const busy = await q.request({ type: "create_session", sessionPath: s2.sessionFile });
    expect(busy).toMatchObject({ success: false, error: expect.stringContaining(`locked by another pith process (pid ${p.child.pid})`) });
    // in the same process, the file is already open
    expect((await p.request({ type: "create_session", sessionPath: s2.sessionFile })).error).toMatch(/already open in this process/);
    // once closed, the other process may open it
    await ok(p, { type: "close_session", sessionId: s2.sessionId });
    const reopened = (await ok(q, { type: "create_session", sessionPath: s2.sessionFile })).data;
    expect(reopened.sessionFile).toBe(s2.sessionFile);
    expect(await q.close()).toBe(0);
    expect(await p.close()).toBe(0);
  });

  it("a process that only ever uses its first session writes no sessionId anywhere", async () => {
    const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    open.push(p);
    llm.enqueue({ text: "plain" });
    await p.promptAndWait("hello");
    expect(p.frames.some((f) => "sessionId" in f && f.type !== "response")).toBe(false);
    expect(p.frames.filter((f) => f.type === "response").every((f) => !("sessionId" in f))).toBe(true);
  });

  it("commands queued behind close_session, or sent while it runs or after, fail naming the closed session", async () => {
    const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
    open.push(p);
    const s = (await ok(p, { type: "create_session" })).data.sessionId as string;
    // a long bash holds the session's queue; get_messages and a prompt wait behind it
    const from = p.frames.length;
    p.send({ id: "long", type: "bash", command: "sleep 5; echo late", sessionId: s });
    p.send({ id: "queued-messages", type: "get_messages", sessionId: s });
    p.send({ id: "queued-prompt", type: "prompt", message: "never sent", sessionId: s });
    p.send({ id: "close", type: "close_session", sessionId: s });
    p.send({ id: "close-again", type: "close_session", sessionId: s });
    const answers = await Promise.all(["long", "queued-messages", "queued-prompt", "close", "close-again"].map((id) => p.waitFor((f) => f.type === "response" && f.id === id, 15_000, from)));
    const [long, messages, prompt, close, again] = answers;
    expect(close).toMatchObject({ success: true, sessionId: s });
    expect(long.command).toBe("bash"); // answered (aborted), not left hanging
    for (const [res, command] of [[messages, "get_messages"], [prompt, "prompt"], [again, "close_session"]] as const) {
      expect(res).toMatchObject({ success: false, command, code: "unknown_session", error: expect.stringContaining(`Session ${s} is closed`) });
    }
    // the queued commands' answers are still stamped with the session they addressed
    expect(messages.sessionId).toBe(s);
    expect(prompt.sessionId).toBe(s);
    const late = await p.request({ type: "get_state", sessionId: s });
    expect(late).toMatchObject({ success: false, code: "unknown_session", error: expect.stringContaining(`Session ${s} is closed`) });
    expect((await p.request({ type: "get_state", sessionId: "never-was" })).error).toMatch(/^Unknown session: never-was/);
    // nothing reached the model
    expect(llm.requests.some((r) => JSON.stringify(r.body).includes("never sent"))).toBe(false);
    expect(await p.close()).toBe(0);
  });
});
