// `pith serve`'s own flags, split from the session flags every mode shares (those go through
// parseArgs, so a served session starts as a `--mode rpc` process with the same flags would).
import { CliError } from "./args.js";

export interface ServeFlags {
  /** `ws://HOST:PORT` or `unix:/path`. */
  listen: string;
  tokenFile?: string;
  tokenSha256?: string;
  allowOrigins: string[];
  insecureNoAuth: boolean;
  maxConnections: number;
  /** Seconds SIGTERM waits for running work before aborting it. */
  drainTimeoutS: number;
  maxMessageBytes: number;
  maxOutboundBytes: number;
  /** Seconds frames may wait unread before the client is disconnected. */
  sendTimeoutS: number;
}

const MIB = 1024 * 1024;

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (value.trim() !== "" && Number.isInteger(n) && n >= min && n <= max) return n;
  throw new CliError(`Invalid value for ${flag}: "${value}" (expected a whole number from ${min} to ${max})`);
}

type ServeFlag = (f: ServeFlags, value: string) => void;

const FLAGS: Record<string, ServeFlag | null> = {
  "--listen": (f, v) => (f.listen = v),
  "--ws-token-file": (f, v) => (f.tokenFile = v),
  "--ws-token-sha256": (f, v) => (f.tokenSha256 = v),
  "--allow-origin": (f, v) => f.allowOrigins.push(...v.split(",").map((s) => s.trim()).filter(Boolean)),
  "--max-connections": (f, v) => (f.maxConnections = wholeNumber("--max-connections", v, 1, 100_000)),
  "--drain-timeout": (f, v) => (f.drainTimeoutS = wholeNumber("--drain-timeout", v, 0, 86_400)),
  "--max-message-bytes": (f, v) => (f.maxMessageBytes = wholeNumber("--max-message-bytes", v, 1024, 1024 * MIB)),
  "--max-outbound-bytes": (f, v) => (f.maxOutboundBytes = wholeNumber("--max-outbound-bytes", v, 64 * 1024, 1024 * MIB)),
  "--send-timeout": (f, v) => (f.sendTimeoutS = wholeNumber("--send-timeout", v, 1, 3600)),
  // a flag without a value
  "--insecure-no-auth": null,
};

/** Splits `pith serve`'s argv into its own flags and the rest (session flags, for parseArgs). */
export function splitServeArgs(argv: string[]): { flags: ServeFlags; rest: string[] } {
  const flags: ServeFlags = {
    listen: "",
    allowOrigins: [],
    insecureNoAuth: false,
    maxConnections: 100,
    drainTimeoutS: 30,
    maxMessageBytes: 16 * MIB,
    maxOutboundBytes: 8 * MIB,
    sendTimeoutS: 30,
  };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!(name in FLAGS)) {
      rest.push(arg);
      continue;
    }
    const set = FLAGS[name];
    if (set === null) {
      if (eq !== -1) throw new CliError(`Option ${name} does not take a value`);
      flags.insecureNoAuth = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new CliError(`Option ${name} requires a value`);
    set(flags, value);
  }
  if (!flags.listen) throw new CliError("pith serve needs --listen ws://HOST:PORT or --listen unix:/path/to/socket");
  if (flags.tokenFile !== undefined && flags.tokenSha256 !== undefined) throw new CliError("--ws-token-file and --ws-token-sha256 exclude each other");
  return { flags, rest };
}

export const SERVE_HELP = `
Serve (pith serve --listen ws://127.0.0.1:8787 [options] [session options]):
  --listen <ws://HOST:PORT|unix:PATH> where hosts connect; one frame per WebSocket text message
  --ws-token-file <path>             the capability token (Authorization: Bearer, or ?token=)
  --ws-token-sha256 <hex>            the token's SHA-256 instead (the token itself stays elsewhere)
                                     neither: a 256-bit token is generated, the URL printed on stderr
  --insecure-no-auth                 no token (required to listen on a non-loopback address without one)
  --allow-origin <origin>            accept upgrades carrying this Origin (repeatable; others: 403)
  --max-connections <n>              connections at once (default 100; more get 503)
  --drain-timeout <seconds>          SIGTERM lets running work finish this long (default 30)
  --max-message-bytes <n>            larger inbound frames get an error frame (default 16 MiB)
  --max-outbound-bytes <n>           a client leaving more unread is disconnected, code 4001 (default 8 MiB)
  --send-timeout <seconds>           a client reading nothing this long while frames wait: same (default 30)
`;
