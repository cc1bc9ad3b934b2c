// RPC mode: ready frame, extensions with the RPC UI, host tools, then serve stdin.
import { attachExtensions } from "../extensions.js";
import { createHostToolBridge } from "../../rpc/host-tools.js";
import { RpcServer } from "../../rpc/server.js";
import { createRpcUiBridge } from "../../rpc/ui-bridge.js";
import { snowflake } from "../../shared/ids.js";
import { JsonlLineSplitter, type LineItem } from "../../transport/jsonl-reader.js";
import { FrameWriter } from "../../transport/frame-writer.js";
import { killAllProcessGroups } from "../../tools/ops/process-groups.js";
import { releaseAllLocks } from "../../session/store/lock.js";
import type { ParsedArgs } from "../args.js";
import { composeSession, type Environment } from "../compose.js";
import type { Settings } from "../settings.js";

declare const __PITH_VERSION__: string;
export const VERSION = typeof __PITH_VERSION__ === "string" ? __PITH_VERSION__ : "0.0.0-dev";

async function* stdinLines(): AsyncIterable<LineItem> {
  const splitter = new JsonlLineSplitter();
  for await (const chunk of process.stdin) {
    for (const item of splitter.push(chunk as Buffer)) yield item;
  }
  for (const item of splitter.end()) yield item;
}

function truthy(v: string | undefined): boolean {
  return !!v && ["1", "true", "yes", "on"].includes(v.trim().toLowerCase());
}

export async function runRpcMode(args: ParsedArgs, settings: Settings, e: Environment): Promise<number> {
  const writer = new FrameWriter(process.stdout, { onError: (err) => e.log(`stdout: ${err.message}`) });
  // A startup failure (bad session, unknown model) exits 1 before `ready` is written.
  const { session, pithHome, registry } = await composeSession(args, settings, e);
  writer.write({ type: "ready", version: VERSION });
  // Live model discovery runs in the background; it never delays startup.
  session.discovery = registry.discover().catch((err) => e.log(`model discovery: ${(err as Error).message}`));
  const ui = createRpcUiBridge({
    writeFrame: (f) => server.framer.push(f as never),
    newId: () => snowflake(),
    emitTitle: !args.noTitle && (truthy(e.env.PITH_RPC_EMIT_TITLE) || truthy(e.env.PI_RPC_EMIT_TITLE)),
  });
  const hostTools = createHostToolBridge({ writeFrame: (f) => server.framer.push(f as never), newId: () => snowflake() });
  const server = new RpcServer({ session, lines: stdinLines(), writer, hostTools, ui, deltaOnly: args.deltaStreaming, log: e.log });
  const reportError = (info: { extensionPath: string; event: string; error: string }) => {
    e.log(`Extension error (${info.extensionPath}): ${info.error}`);
    server.framer.push({ type: "extension_error", ...info } as never);
  };
  await attachExtensions(args, session, pithHome, e, {
    ui,
    hasUI: true,
    onError: reportError,
    onPromptError: (command, error) => writer.write({ type: "response", command, success: false, error }),
  });
  const onSignal = (code: number) => {
    void server.terminate().finally(() => {
      killAllProcessGroups();
      releaseAllLocks();
      process.exit(code);
    });
  };
  process.once("SIGINT", () => onSignal(130));
  process.once("SIGTERM", () => onSignal(143));
  const code = await server.serve();
  killAllProcessGroups();
  session.rt.store.close();
  return code;
}
