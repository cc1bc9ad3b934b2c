// A transport over any Readable/Writable pair: lines in, frames out. stdio and memory build on it.
import type { Readable, Writable } from "node:stream";
import { noteBigGarbage } from "../shared/big-garbage.js";
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

/** A line this long leaves big garbage once parsed: its text. */
const BIG_LINE = 1024 * 1024;
const TAKEN: LineItem = { line: "" };

/** Yields the items, keeping no reference once one is taken; returns the size of the big ones. */
function* handOver(items: LineItem[]): Generator<LineItem, number> {
  let big = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    items[i] = TAKEN;
    if ("line" in item && item.line.length >= BIG_LINE) big += item.line.length;
    yield item;
  }
  return big;
}

/** The lines; once the reader has parsed a big one, its text is garbage. */
async function* readLines(input: Readable, splitter: JsonlLineSplitter): AsyncGenerator<LineItem> {
  for await (const chunk of input) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer);
    const big = yield* handOver(splitter.push(bytes));
    if (big > 0) noteBigGarbage(big);
  }
  yield* handOver(splitter.end());
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
