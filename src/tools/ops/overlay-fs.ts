// File operations whose text reads and writes go to another holder of the files (an editor over
// ACP, whose unsaved buffers are the truth), everything else to the base file system. Binary
// files (images, PDFs) are always read from the base: a text channel would corrupt them.
import type { FsOps } from "./fs-ops.js";

export interface TextFiles {
  read?(path: string): Promise<string>;
  write?(path: string, content: string): Promise<void>;
}

const BINARY = /\.(png|jpe?g|gif|webp|bmp|ico|tiff?|pdf|zip|gz|tgz|wasm|so|dylib|exe|bin)$/i;

export function overlayTextFiles(base: FsOps, files: TextFiles): FsOps {
  const { read, write } = files;
  return {
    ...base,
    readFile: read ? async (p) => (BINARY.test(p) ? base.readFile(p) : Buffer.from(await read(p), "utf8")) : base.readFile,
    writeFile: write ? (p, data) => (typeof data === "string" ? write(p, data) : base.writeFile(p, data)) : base.writeFile,
  };
}
