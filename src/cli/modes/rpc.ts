// RPC mode: the session, the RPC front door over stdio, the ready frame, extensions with the RPC
// UI, then serve stdin until it ends.
import { sessionWiring } from "../../session/index.js";
import { errorMessage } from "../../shared/errors.js";
import { attachExtensions } from "../extensions.js";
import { RpcServer, type RpcServerOptions } from "../../rpc/server.js";
import type { CreateSessionParams } from "../../protocol/index.js";
import type { AgentSession } from "../../session/index.js";
import type { ModelRegistry } from "../../providers/models/registry.js";
import { createStdioTransport, type Transport } from "../../transport/index.js";
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

/** What a front door needs from the composition root, whatever carries its frames. */
export interface FrontDoorParts {
  args: ParsedArgs;
  e: Environment;
  pithHome: string;
  createSession(params: CreateSessionParams, current: AgentSession): Promise<AgentSession>;
  /** Live model discovery, tracked by every session the front door creates. */
  discovery: () => Promise<void>;
}

/**
 * A front door over `transport` for `session`: `ready` written, checkpoints started, extensions
 * attached with its UI, their commands announced. stdio and `pith serve` connections build it alike.
 */
export async function openFrontDoor(session: AgentSession, transport: Transport, p: FrontDoorParts, extra: Partial<RpcServerOptions> = {}): Promise<RpcServer> {
  const { args, e } = p;
  const server = new RpcServer(session, transport, {
    deltaOnly: args.deltaStreaming,
    heartbeatMs: args.heartbeat,
    version: VERSION,
    emitTitle: !args.noTitle && (truthy(e.env.PITH_RPC_EMIT_TITLE) || truthy(e.env.PI_RPC_EMIT_TITLE)),
    log: e.log,
    // create_session: more sessions in this process, each with the extensions attached
    sessionFactory: {
      create: async (params, current) => {
        const created = await p.createSession(params, current);
        sessionWiring(created).models.trackDiscovery(p.discovery()); // create_session runs only after discovery started
        return created;
      },
      attach: (created, bindings) => attachExtensions(args, created, p.pithHome, e.log, bindings),
    },
    ...extra,
  });
  server.ready(VERSION);
  // File checkpoints (when on) look for git now, after `ready`: the probe spawns `git --version`.
  void sessionWiring(session).checkpoints.start();
  sessionWiring(session).models.trackDiscovery(p.discovery());
  await attachExtensions(args, session, p.pithHome, e.log, server.extensionBindings);
  server.announceCommands();
  return server;
}

/** Starts the registry's live model discovery at the first call; every call shares it; failures are logged. */
export function discoverOnce(registry: ModelRegistry, log: (message: string) => void): () => Promise<void> {
  let discovery: Promise<void> | undefined;
  return () => (discovery ??= registry.discover().then(
    () => undefined,
    (err) => log(`model discovery: ${(err as Error).message}`),
  ));
}

export async function runRpcMode(args: ParsedArgs, settings: SettingsSource, e: Environment): Promise<number> {
  const transport = createStdioTransport({ onWriteError: (err) => e.log(`stdout: ${err.message}`) });
  // A startup failure (bad session, unknown model) exits 1 before `ready` is written.
  const { session, pithHome, registry, createSession } = await composeSession(args, settings, e);
  // Live model discovery runs in the background (started right after `ready`); it never delays startup.
  const discover = discoverOnce(registry, e.log);
  const server = await openFrontDoor(session, transport, { args, e, pithHome, createSession, discovery: discover });
  exitOnSignals(() => server.terminate());
  const code = await server.serve();
  killAllProcessGroups();
  // Every frame is out by now: a cleanup step that fails is reported, not turned into a failed run.
  await session.close().catch((err: unknown) => e.log(`pith: ${errorMessage(err)}`));
  return code;
}
