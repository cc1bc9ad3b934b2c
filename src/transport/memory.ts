// An in-memory transport pair for tests: the agent side is a normal Transport, the host side
// writes raw strings/bytes/objects and reads the parsed frames the agent wrote.
import { PassThrough } from "node:stream";
import { JsonlLineSplitter, parseFrame } from "./jsonl-reader.js";
import { createStreamTransport, type StreamTransportOptions, type Transport } from "./stream-transport.js";

// Tests read the frames they wait for as the shapes they expect (the agent side checks them).
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface MemoryHost {
  /** Writes to the agent's input: strings and bytes verbatim, objects as one JSON line. */
  send(data: string | Uint8Array | object): void;
  /** Closes the agent's input (stdin EOF). */
  end(): void;
  /** Every frame received so far, parsed; lines that are not JSON objects appear as `{ rawLine }`. */
  readonly frames: unknown[];
  /** Resolves with the first received frame (past or future) after `from` that matches. */
  waitFor(predicate: (frame: any) => boolean, from?: number): Promise<any>;
  /** Resolves when the agent side closed its output. */
  readonly outputClosed: Promise<void>;
  /** Closes the agent's output as a broken pipe would. */
  breakOutput(): void;
}

export interface MemoryTransportOptions extends StreamTransportOptions {
  /** highWaterMark of the agent → host pipe, to exercise backpressure. */
  outputHighWaterMark?: number;
}

export function createMemoryTransport(options: MemoryTransportOptions = {}): { transport: Transport; host: MemoryHost } {
  const input = new PassThrough();
  const output = new PassThrough({ highWaterMark: options.outputHighWaterMark });
  const transport = createStreamTransport(input, output, { ...options, endOutputOnClose: true });
  const frames: unknown[] = [];
  const waiters: Array<{ predicate: (frame: any) => boolean; from: number; resolve: (frame: any) => void }> = [];
  const splitter = new JsonlLineSplitter();

  const record = (frame: unknown) => {
    frames.push(frame);
    for (const waiter of waiters.slice()) {
      if (frames.length - 1 >= waiter.from && waiter.predicate(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  };
  const take = (items: ReturnType<JsonlLineSplitter["push"]>) => {
    for (const item of items) {
      if ("error" in item) record({ rawLine: item.error });
      else {
        const parsed = parseFrame(item.line);
        record(parsed.ok ? parsed.value : { rawLine: item.line });
      }
    }
  };
  output.on("data", (chunk: Buffer) => take(splitter.push(chunk)));
  const outputClosed = new Promise<void>((resolve) => {
    output.on("end", () => {
      take(splitter.end());
      resolve();
    });
    output.on("close", () => resolve());
  });

  const host: MemoryHost = {
    send(data) {
      if (typeof data === "string" || data instanceof Uint8Array) input.write(data);
      else input.write(JSON.stringify(data) + "\n");
    },
    end: () => input.end(),
    frames,
    waitFor(predicate, from = 0) {
      const found = frames.slice(from).find(predicate);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ predicate, from, resolve }));
    },
    outputClosed,
    breakOutput() {
      const err = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
      output.destroy(err);
    },
  };
  return { transport, host };
}
