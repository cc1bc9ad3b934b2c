// Collects a command's merged output: counts everything, keeps a bounded tail in memory and,
// once the output exceeds the limits, spills the whole stream to a temp file.
import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail, type TruncationResult } from "../truncate.js";

export interface CollectedOutput {
  /** The tail-truncated text (trailing newline removed). */
  text: string;
  truncation: TruncationResult;
  /** Lines in the whole output. */
  totalLines: number;
  fullOutputPath?: string;
}

export class OutputCollector {
  private chunks: Buffer[] = [];
  private keptBytes = 0;
  private totalBytes = 0;
  private newlines = 0;
  private lastByte = -1;
  private file?: WriteStream;
  private filePath?: string;
  private fileError?: Error;

  constructor(private readonly tempDir: string) {}

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) this.newlines++;
    if (chunk.length) this.lastByte = chunk[chunk.length - 1];
    if (!this.file && (this.totalBytes > DEFAULT_MAX_BYTES || this.newlines > DEFAULT_MAX_LINES)) this.openFile();
    this.file?.write(chunk);
    this.chunks.push(chunk);
    this.keptBytes += chunk.length;
    // Keep twice the byte limit so the tail cut never lands on a split character.
    while (this.chunks.length > 1 && this.keptBytes - this.chunks[0].length >= 2 * DEFAULT_MAX_BYTES) {
      this.keptBytes -= this.chunks.shift()!.length;
    }
  }

  private openFile(): void {
    this.filePath = join(this.tempDir, `pith-bash-${randomBytes(6).toString("hex")}.log`);
    // Readable by the user only, and never through a file or link that is already there.
    this.file = createWriteStream(this.filePath, { flags: "wx", mode: 0o600 });
    this.file.on("error", (err) => (this.fileError = err));
    for (const c of this.chunks) this.file.write(c);
  }

  /** The accumulated tail for streaming updates. */
  preview(): string {
    return truncateTail(Buffer.concat(this.chunks).toString("utf8")).content;
  }

  async finish(): Promise<CollectedOutput> {
    if (this.file) {
      const f = this.file;
      await new Promise<void>((resolve) => f.end(resolve));
    }
    let text = Buffer.concat(this.chunks).toString("utf8");
    const trailing = this.lastByte === 10;
    if (trailing) text = text.slice(0, -1);
    const truncation = truncateTail(text);
    const totalLines = this.totalBytes === 0 ? 0 : this.newlines + (trailing ? 0 : 1);
    const out: CollectedOutput = { text: truncation.content, truncation, totalLines };
    if (this.filePath && !this.fileError) out.fullOutputPath = this.filePath;
    return out;
  }
}
