// The process transport: stdin lines in, stdout frames out.
import type { Readable, Writable } from "node:stream";
import { createStreamTransport, type StreamTransportOptions, type Transport } from "./stream-transport.js";

export interface StdioTransportOptions extends StreamTransportOptions {
  /** Defaults to process.stdin / process.stdout (overridable for tests). */
  stdin?: Readable;
  stdout?: Writable;
}

export function createStdioTransport(options: StdioTransportOptions = {}): Transport {
  return createStreamTransport(options.stdin ?? process.stdin, options.stdout ?? process.stdout, options);
}
