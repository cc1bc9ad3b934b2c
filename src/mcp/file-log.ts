// A log sink that appends `<ISO time> [<server>] <line>` to a file (opened on the first line,
// folders created). If the file cannot be written the sink reports it once through `onError`
// and drops further lines: a log must never take pith down.
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import type { McpLogSink } from "./types.js";

export interface FileLogSink {
  log: McpLogSink;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}

export function createFileLogSink(file: string, onError: (message: string) => void): FileLogSink {
  let stream: WriteStream | undefined;
  let broken = false;
  const fail = (err: Error) => {
    if (broken) return;
    broken = true;
    onError(`pith: cannot write the MCP log ${file}: ${err.message}`);
  };
  const open = (): WriteStream | undefined => {
    if (stream || broken) return stream;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (err) {
      fail(err as Error);
      return undefined;
    }
    stream = createWriteStream(file, { flags: "a" });
    stream.on("error", fail);
    return stream;
  };
  return {
    log: (server, text) => {
      const s = open();
      if (s && !broken) s.write(`${new Date().toISOString()} [${server}] ${text.replace(/\n+$/, "")}\n`);
    },
    close: () => new Promise((resolve) => (stream && !broken ? stream.end(resolve) : resolve())),
  };
}
