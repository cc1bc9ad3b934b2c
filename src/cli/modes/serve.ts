// `pith serve`: the RPC protocol over authenticated WebSockets, many hosts per process. Each
// connection gets its own first session, built as a fresh `--mode rpc` process would build it.
// The process runs until SIGTERM/SIGINT (stdin is never read: containers start it closed), then
// drains: no new connections, running work may finish until --drain-timeout, then exit 0.
import path from "node:path";
import { generateToken, readTokenFile, tokenCheckFromSha256, tokenCheckFromToken, type TokenCheck } from "../../serve/auth.js";
import { connectUrl, isLoopback, parseListenAddress, type ListenAddress } from "../../serve/listen-address.js";
import { ServeServer } from "../../serve/serve-server.js";
import { killAllProcessGroups } from "../../tools/ops/process-groups.js";
import { releaseAllLocks } from "../../session/index.js";
import { CliError, type ParsedArgs } from "../args.js";
import { composeServer, type Environment } from "../compose.js";
import type { SettingsSource } from "../project-layer.js";
import type { ServeFlags } from "../serve-args.js";
import { discoverOnce, openFrontDoor } from "./rpc.js";

/** The token check, and the token to print when pith generated it. */
function authFor(flags: ServeFlags, address: ListenAddress, cwd: string): { auth: TokenCheck | undefined; generated?: string } {
  if (flags.tokenFile !== undefined) return { auth: tokenCheckFromToken(readTokenFile(path.resolve(cwd, flags.tokenFile))) };
  if (flags.tokenSha256 !== undefined) return { auth: tokenCheckFromSha256(flags.tokenSha256) };
  if (flags.insecureNoAuth) return { auth: undefined };
  // a network listener never runs unauthenticated by accident, nor with a token only stderr shows
  if (!isLoopback(address)) {
    throw new CliError(`pith serve refuses to listen on ${flags.listen} without a token: pass --ws-token-file or --ws-token-sha256 (or --insecure-no-auth)`);
  }
  const generated = generateToken();
  return { auth: tokenCheckFromToken(generated), generated };
}

export async function runServeMode(args: ParsedArgs, flags: ServeFlags, settings: SettingsSource, e: Environment): Promise<number> {
  if (args.messages.length > 0 || args.fileArgs.length > 0) throw new CliError("pith serve takes no messages: hosts send prompts over their connections");
  if (args.mode !== undefined || args.print) throw new CliError("pith serve cannot be combined with --mode or --print");
  const address = parseListenAddress(flags.listen);
  const { auth, generated } = authFor(flags, address, e.cwd);
  // A bad model or settings fail startup, before anything listens.
  const composed = await composeServer(args, settings, e);
  const discover = discoverOnce(composed.registry, e.log);
  const wire = { transport: "websocket" as const, maxMessageBytes: flags.maxMessageBytes };
  const server = new ServeServer({
    address,
    auth,
    allowedOrigins: flags.allowOrigins,
    maxConnections: flags.maxConnections,
    maxMessageBytes: flags.maxMessageBytes,
    maxOutboundBytes: flags.maxOutboundBytes,
    sendTimeoutMs: flags.sendTimeoutS * 1000,
    log: e.log,
    open: async (transport) => {
      const session = await composed.newSession();
      const parts = { args, e, pithHome: composed.pithHome, createSession: composed.createSession, discovery: discover };
      return openFrontDoor(session, transport, parts, { wire });
    },
  });
  const port = await server.listen();
  const url = connectUrl(address, port);
  e.log(`pith serve: listening on ${url}`);
  if (generated) e.log(`pith serve: connect with ${url}?token=${generated}`);
  if (!auth) e.log("pith serve: WARNING: --insecure-no-auth: anyone who can reach this address drives the agent");
  await untilSignal(() => {
    // a second signal stops waiting for running work
    killAllProcessGroups();
    releaseAllLocks();
    process.exit(0);
  });
  e.log(`pith serve: draining ${server.connectionCount} connection(s), up to ${flags.drainTimeoutS}s`);
  await server.drain(flags.drainTimeoutS * 1000);
  killAllProcessGroups();
  return 0;
}

/** Resolves at the first SIGTERM or SIGINT; `again` runs at the next one. */
function untilSignal(again: () => void): Promise<void> {
  return new Promise((resolve) => {
    const first = () => {
      process.off("SIGTERM", first);
      process.off("SIGINT", first);
      process.once("SIGTERM", again);
      process.once("SIGINT", again);
      resolve();
    };
    process.on("SIGTERM", first);
    process.on("SIGINT", first);
  });
}
