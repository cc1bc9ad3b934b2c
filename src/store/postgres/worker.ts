// The session database's worker thread: owns the connection (pg), runs one operation at a time
// in the order asked, and answers each. A synchronous request's answer goes to the port the main
// thread drains while it waits, followed by a notify on the shared flag; an asynchronous one's
// to the port the main thread listens on.
import { workerData, type MessagePort } from "node:worker_threads";
import { PithError, errorMessage } from "../../shared/errors.js";
import { Connection } from "./connection.js";
import { clientConfig } from "./client-config.js";
import type { Answer, Request, WorkerInit } from "./protocol.js";
import { redact } from "./redact.js";
import { OPS } from "./worker-ops.js";

interface Start extends WorkerInit {
  requests: MessagePort;
  syncAnswers: MessagePort;
  asyncAnswers: MessagePort;
  flag: SharedArrayBuffer;
}

const start = workerData as Start;
const flag = new Int32Array(start.flag);
const holder = { host: start.host, pid: start.pid };
/** Texts never let out: the URL's and the environment's, plus any password read later. */
let secrets: string[] = [...start.secrets];
// A URL the driver cannot use fails every request with the reason (redacted), not the worker.
const ready: Promise<Connection> = clientConfig(start).then(({ config, secrets: found }) => {
  found.push(...start.secrets);
  secrets = found;
  return new Connection(config, holder, start.reconnectMs);
});
ready.catch((err: unknown) => void err); // reported to each request below

function codeOf(err: unknown): string {
  if (err instanceof PithError) return err.code;
  const sqlState = (err as { code?: unknown }).code;
  return typeof sqlState === "string" && /^28/.test(sqlState) ? "config" : "io";
}

async function handle(req: Request): Promise<void> {
  let answer: Answer;
  try {
    const op = OPS[req.op];
    if (!op) throw new PithError("internal", `Unknown session database operation: ${req.op}`);
    const db = await ready;
    const value = await (op as (...a: unknown[]) => Promise<unknown>)(db, req.deadline, holder, ...req.args);
    answer = { id: req.id, ok: true, value };
  } catch (err) {
    answer = { id: req.id, ok: false, code: codeOf(err), message: redact(errorMessage(err), secrets) };
  }
  if (req.sync) {
    start.syncAnswers.postMessage(answer);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  } else {
    start.asyncAnswers.postMessage(answer);
  }
}

let queue: Promise<void> = Promise.resolve();
start.requests.on("message", (req: Request) => {
  queue = queue.then(() => handle(req));
});
