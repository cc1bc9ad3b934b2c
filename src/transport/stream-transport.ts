// A transport over any Readable/Writable pair: lines in, frames out. stdio and memory build on it.
import type { Readable, Writable } from "node:stream";
import { FrameWriter } from "./frame-writer.js";
import { JsonlLineSplitter, type LineItem } from "./jsonl-reader.js";

export interface Transport {
  /** Inbound lines in arrival order; ends after the EOF fragment. Iterate once. */
  lines: AsyncIterable<LineItem>;
  writer: FrameWriter;
  /** Stops reading and resolves once every written frame has been handed to the OS. */
  close(): Promise<void>;
}

export interface StreamTransportOptions {
  maxLineBytes?: number;
  /** First output error (EPIPE...), reported once. */
  onWriteError?: (err: Error) => void;
  /** End the output stream on close (memory pipes); stdout is left open. */
  endOutputOnClose?: boolean;
}

async function* readLines(input: Readable, splitter: JsonlLineSplitter): AsyncGenerator<LineItem> {
  for await (const chunk of input) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer);
    for (const item of splitter.push(bytes)) yield item;
  }
  for (const item of splitter.end()) yield item;
}

export function createStreamTransport(input: Readable, output: Writable, options: StreamTransportOptions = {}): Transport {
  const splitter = new JsonlLineSplitter({ maxLineBytes: options.maxLineBytes });
  const writer = new FrameWriter(output, { onError: options.onWriteError });
  const lines = readLines(input, splitter);
  return {
    lines,
    writer,
    async close() {
      await lines.return(undefined);
      await writer.flush();
      if (options.endOutputOnClose && !writer.closed) output.end();
    },
  };
}
