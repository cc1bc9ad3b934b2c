// Drives `pith --mode acp` with the ACP SDK's own client, the way an editor does: spawns the
// built CLI, records every session/update and every raw stdout line, and answers permission
// requests and file-system callbacks with what the test sets.
import * as acp from "@agentclientprotocol/sdk";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";

export interface AcpRunOptions {
  cli: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Answers session/request_permission: an optionId, or undefined to cancel. */
  permission?: (req: acp.RequestPermissionRequest) => string | undefined | Promise<string | undefined>;
  /** Offer fs callbacks backed by these maps (path → text). */
  fs?: { files: Map<string, string>; reads: string[]; writes: string[] };
}

export interface AcpRun {
  agent: acp.ClientContext;
  child: ChildProcessWithoutNullStreams;
  updates: acp.SessionNotification[];
  permissionRequests: acp.RequestPermissionRequest[];
  stdoutLines: string[];
  stderr: () => string;
  updatesOf(sessionId: string): acp.SessionUpdate[];
  close(): Promise<void>;
}

export async function startAcp(o: AcpRunOptions): Promise<AcpRun> {
  const child = spawn(process.execPath, [o.cli, "--mode", "acp", ...o.args], { cwd: o.cwd, env: o.env, stdio: "pipe" });
  const stdoutLines: string[] = [];
  let partial = "";
  const errChunks: string[] = [];
  child.stderr.on("data", (c: Buffer) => errChunks.push(c.toString("utf8")));
  // Tee stdout: the raw lines (to prove nothing else is written) and a stream for the SDK.
  const tee = new Readable({ read() {} });
  child.stdout.on("data", (c: Buffer) => {
    const text = partial + c.toString("utf8");
    const lines = text.split("\n");
    partial = lines.pop() ?? "";
    stdoutLines.push(...lines);
    tee.push(c);
  });
  child.stdout.on("end", () => tee.push(null));
  const updates: acp.SessionNotification[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  let app = acp
    .client({ name: "pith-e2e" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissionRequests.push(params);
      const chosen = o.permission ? await o.permission(params) : undefined;
      return { outcome: chosen === undefined ? { outcome: "cancelled" as const } : { outcome: "selected" as const, optionId: chosen } };
    });
  if (o.fs) {
    const fs = o.fs;
    app = app
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        fs.reads.push(params.path);
        const text = fs.files.get(params.path);
        if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        fs.writes.push(params.path);
        fs.files.set(params.path, params.content);
        return {};
      });
  }
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(tee) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  return {
    agent: connection.agent,
    child,
    updates,
    permissionRequests,
    stdoutLines,
    stderr: () => errChunks.join(""),
    updatesOf: (sessionId) => updates.filter((u) => u.sessionId === sessionId).map((u) => u.update),
    close: async () => {
      child.stdin.end();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const t = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(t);
          resolve();
        });
      });
    },
  };
}
