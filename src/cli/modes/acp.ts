// ACP mode (`pith --mode acp`): an Agent Client Protocol agent on stdin/stdout for editors.
// Only protocol frames reach stdout: everything else written there (extensions' console.log,
// stray writes) is sent to stderr. The SDK is loaded here, never in the other modes.
import path from "node:path";
import { Readable } from "node:stream";
import type { AcpHost, AcpSessionSpec, HostedAcpSession } from "../../acp/index.js";
import { releaseAllLocks, sessionWiring, type SessionStorage } from "../../session/index.js";
import { createNodeFsOps, overlayTextFiles } from "../../tools/index.js";
import { killAllProcessGroups } from "../../tools/ops/process-groups.js";
import type { ParsedArgs } from "../args.js";
import { composeSession, pithHomeOf, probeModel, type Environment } from "../compose.js";
import { sessionStorageFor } from "../session-store.js";
import { attachExtensions } from "../extensions.js";
import { exitOnSignals } from "../termination.js";
import type { SettingsSource } from "../project-layer.js";
import { VERSION } from "./rpc.js";

/** Takes stdout for the protocol: returns the writer that reaches the real stdout. */
function claimStdout(): (chunk: Uint8Array) => Promise<void> {
  const out = process.stdout;
  const write = out.write.bind(out) as (chunk: Uint8Array, cb: (err?: Error | null) => void) => boolean;
  out.write = process.stderr.write.bind(process.stderr) as typeof out.write;
  return (chunk) => new Promise((resolve, reject) => void write(chunk, (err) => (err ? reject(err) : resolve())));
}

function createHost(args: ParsedArgs, settings: SettingsSource, e: Environment, storage: SessionStorage): AcpHost {
  const pithHome = pithHomeOf(e.env);
  const folderOf = (cwd: string) => (args.sessionDir ? path.resolve(cwd, args.sessionDir) : storage.dirFor(pithHome, cwd));

  const compose = async (spec: AcpSessionSpec, session: string | undefined): Promise<HostedAcpSession> => {
    if (!path.isAbsolute(spec.cwd)) throw new Error(`cwd must be an absolute path, got "${spec.cwd}"`);
    const sessionArgs: ParsedArgs = { ...args, cwd: spec.cwd, session, continue: false };
    const fs = spec.files ? overlayTextFiles(createNodeFsOps(), spec.files) : undefined;
    // each session's own folder decides its trust, and so its settings (--trust-project: every folder)
    const { session: s, registry } = await composeSession(sessionArgs, settings, { ...e, cwd: spec.cwd }, { fs });
    sessionWiring(s).models.trackDiscovery(registry.discover().catch((err) => e.log(`model discovery: ${(err as Error).message}`)));
    return { session: s, attachExtensions: (bindings) => attachExtensions(sessionArgs, s, pithHome, e.log, bindings) };
  };

  const probe = probeModel(args, settings, e);
  return {
    version: VERSION,
    log: e.log,
    create: (spec) => compose(spec, undefined),
    open: (sessionId, spec) => compose(spec, storage.find(sessionId, { dir: folderOf(spec.cwd), cwd: spec.cwd, pithHome: args.sessionDir ? undefined : pithHome })),
    list: async (cwd, cursor) => {
      // the same listing as RPC's list_sessions: names and first messages without full parses
      const { sessions, nextCursor } = await storage.list(cwd ? { dirs: [folderOf(cwd)], cursor, limit: 200 } : { dirs: [], all: { pithHome }, cursor, limit: 200 });
      const title = (s: (typeof sessions)[number]) => s.name ?? (s.firstMessage ? s.firstMessage.replace(/\s+/g, " ").slice(0, 80) : undefined);
      return {
        sessions: sessions.map((s) => ({ sessionId: s.id, cwd: s.cwd, title: title(s), updatedAt: s.modifiedAt })),
        ...(nextCursor ? { nextCursor } : {}),
      };
    },
    authProblem: () => probe.problem,
    acceptsImages: () => probe.model?.input.includes("image") ?? true,
  };
}

export async function runAcpMode(args: ParsedArgs, settings: SettingsSource, e: Environment): Promise<number> {
  const write = claimStdout();
  const acp = await import("@agentclientprotocol/sdk");
  const { createAcpAgent } = await import("../../acp/index.js");
  const door = createAcpAgent(createHost(args, settings, e, await sessionStorageFor(args, settings, e.env)));
  const output = new WritableStream<Uint8Array>({ write: (chunk) => write(chunk) });
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const connection = door.app.connect(acp.ndJsonStream(output, input));
  const finish = async () => {
    await Promise.race([door.closeAll(), new Promise((r) => setTimeout(r, 1200).unref())]);
    killAllProcessGroups();
    releaseAllLocks();
  };
  exitOnSignals(finish);
  await connection.closed;
  await finish();
  return 0;
}
