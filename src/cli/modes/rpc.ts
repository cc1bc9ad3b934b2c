// RPC mode: the session, the RPC front door over stdio, the ready frame, extensions with the RPC
// UI, then serve stdin until it ends.
import { sessionWiring } from "../../session/index.js";
import { errorMessage } from "../../shared/errors.js";
import { attachExtensions } from "../extensions.js";
import { RpcServer } from "../../rpc/server.js";
import { createStdioTransport } from "../../transport/index.js";
import { killAllProcessGroups } from "../../tools/ops/process-groups.js";
import type { ParsedArgs } from "../args.js";
import { composeSession, type Environment } from "../compose.js";
import { exitOnSignals } from "../termination.js";
import type { SettingsSource } from "../project-layer.js";

declare const __PITH_VERSION__: string;
export const VERSION = typeof __PITH_VERSION__ === "string" ? __PITH_VERSION__ : "0.0.0-dev";

function truthy(v: string | undefined): boolean {
  return !!v && ["1", "true", "yes", "on"].includes(v.trim().toLowerCase());
}

export async function runRpcMode(args: ParsedArgs, settings: SettingsSource, e: Environment): Promise<number> {
  const transport = createStdioTransport({ onWriteError: (err) => e.log(`stdout: ${err.message}`) });
  // A startup failure (bad session, unknown model) exits 1 before `ready` is written.
  const { session, pithHome, registry, createSession } = await composeSession(args, settings, e);
  const server = new RpcServer(session, transport, {
    deltaOnly: args.deltaStreaming,
    heartbeatMs: args.heartbeat,
    version: VERSION,
    emitTitle: !args.noTitle && (truthy(e.env.PITH_RPC_EMIT_TITLE) || truthy(e.env.PI_RPC_EMIT_TITLE)),
    log: e.log,
    // create_session (issue 19): more sessions in this process, each with the extensions attached
    sessionFactory: {
      create: async (params, current) => {
        const created = await createSession(params, current);
        sessionWiring(created).models.trackDiscovery(discovery); // create_session runs only after `discovery` is set
        return created;
      },
      attach: (created, bindings) => attachExtensions(args, created, pithHome, e.log, bindings),
    },
  });
  server.ready(VERSION);
  // File checkpoints (when on) look for git now, after `ready`: the probe spawns `git --version`.
  void sessionWiring(session).checkpoints.start();
  // Live model discovery runs in the background; it never delays startup.
  const discovery = registry.discover().catch((err) => e.log(`model discovery: ${(err as Error).message}`));
  sessionWiring(session).models.trackDiscovery(discovery);
  await attachExtensions(args, session, pithHome, e.log, server.extensionBindings);
  server.announceCommands();
  exitOnSignals(() => server.terminate());
  const code = await server.serve();
  killAllProcessGroups();
  // Every frame is out by now: a cleanup step that fails is reported, not turned into a failed run.
  await session.close().catch((err: unknown) => e.log(`pith: ${errorMessage(err)}`));
  return code;
}
