// The host's shell commands in-process: admission on arrival and abort_bash.
import { existsSync } from "node:fs";
import { sessionWiring } from "./session-wiring.js";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scriptedStream } from "../../test/support/agent.js";
import { testSession } from "../../test/support/session.js";

describe("UserBash admission", () => {
  it("a command admitted before abort() never starts and is not recorded; one admitted after runs", async () => {
    const { session } = testSession({ stream: scriptedStream([]).stream });
    const marker = path.join(session.cwd, "started");
    const early = sessionWiring(session).bash.admit();
    sessionWiring(session).bash.abort();
    const late = sessionWiring(session).bash.admit();
    const cancelled = await sessionWiring(session).bash.run(`touch '${marker}'`, early);
    expect(cancelled).toMatchObject({ cancelled: true, output: "[Command cancelled]\n", totalBytes: 0 });
    expect(cancelled.exitCode).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
    expect(sessionWiring(session).history.messages).toEqual([]);
    const ran = await sessionWiring(session).bash.run(`touch '${marker}' && echo ok`, late);
    expect(ran).toMatchObject({ cancelled: false, exitCode: 0, output: "ok\n" });
    expect(existsSync(marker)).toBe(true);
    expect(sessionWiring(session).history.messages.map((m) => m.role)).toEqual(["bashExecution"]);
    await session.close();
  });

  it("abort() ends the running command and the ones admitted with it", async () => {
    const { session } = testSession({ stream: scriptedStream([]).stream });
    const admitted = sessionWiring(session).bash.admit();
    const running = sessionWiring(session).bash.run("sleep 30");
    for (let i = 0; i < 500 && !sessionWiring(session).bash.running; i++) await new Promise((r) => setTimeout(r, 5));
    sessionWiring(session).bash.abort();
    expect(await running).toMatchObject({ cancelled: true });
    expect((await sessionWiring(session).bash.run("echo never", admitted)).cancelled).toBe(true);
    await session.close();
  });
});
