// Long tool output spilled to files: a private folder per user (0700, owned by the user, not a
// shared /tmp/pith), one folder per session inside it, files 0600, and the session's folder gone
// when the session ends: close_session, stdin EOF, SIGTERM. Asserted on the tool result the fake
// provider received and on the host's `bash` response.
import { existsSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Pith, fakeModelsJson, trackPiths, useFakeLlm } from "./harness.js";
import { runTools } from "./tool-turn.js";

const llm = useFakeLlm();
const open = trackPiths();
const userDir = path.join(tmpdir(), `pith-${process.getuid!()}`);

async function start(): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  return p;
}

const LONG = "seq 1 5000";

function expectPrivate(file: string): string {
  const dir = path.dirname(file);
  expect(path.dirname(dir)).toBe(userDir);
  expect(path.basename(dir)).toMatch(/^session-/);
  for (const d of [userDir, dir]) {
    const st = lstatSync(d);
    expect(st.isDirectory() && !st.isSymbolicLink(), d).toBe(true);
    expect(st.mode & 0o777, d).toBe(0o700);
    expect(st.uid, d).toBe(process.getuid!());
  }
  const f = lstatSync(file);
  expect(f.isFile()).toBe(true);
  expect(f.mode & 0o777).toBe(0o600);
  expect(f.uid).toBe(process.getuid!());
  return dir;
}

describe("spill files", () => {
  it("the bash tool's and the bash command's full outputs are 0600 files in the session's 0700 folder, gone after EOF", async () => {
    const p = await start();
    const r = await runTools(llm, p, [{ id: "long", name: "bash", arguments: { command: LONG } }]);
    const toolFile = /Full output: (\S+\.log)/.exec(r.get("long")!.text)?.[1];
    expect(toolFile, r.get("long")!.text.slice(-300)).toBeDefined();
    const dir = expectPrivate(toolFile!);
    const host = await p.request({ type: "bash", command: LONG });
    expect(host.data.truncated).toBe(true);
    expect(path.dirname(host.data.fullOutputPath)).toBe(dir);
    expectPrivate(host.data.fullOutputPath);
    expect(await p.close()).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(userDir)).toBe(true); // the user's folder stays for the other pith processes
  });

  it("close_session removes that session's folder only; SIGTERM removes the rest", async () => {
    const p = await start();
    const created = await p.request({ type: "create_session" });
    expect(created.success).toBe(true);
    const other = created.data.sessionId as string;
    const inOther = await p.request({ type: "bash", command: LONG, sessionId: other });
    const otherDir = expectPrivate(inOther.data.fullOutputPath);
    const inMain = await p.request({ type: "bash", command: LONG });
    const mainDir = expectPrivate(inMain.data.fullOutputPath);
    expect(mainDir).not.toBe(otherDir);
    expect((await p.request({ type: "close_session", sessionId: other })).success).toBe(true);
    expect(existsSync(otherDir)).toBe(false);
    expect(existsSync(mainDir)).toBe(true);
    p.child.kill("SIGTERM");
    await p.exited;
    expect(existsSync(mainDir)).toBe(false);
  });
});
