// LF-only line splitting over raw stdout bytes (protocol.md §1.3). Never splits on CR,
// U+2028/U+2029 or U+0085; strips one trailing CR; a multi-byte character can straddle chunks
// because decoding happens per complete line (0x0A never occurs inside a UTF-8 sequence).

export class LfLineSplitter {
  private pending: Buffer[] = [];

  /** Feeds one chunk; returns the complete lines it finished (without LF / trailing CR). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      const piece = chunk.subarray(start, nl);
      const bytes = this.pending.length > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      lines.push(decodeLine(bytes));
      start = nl + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    return lines;
  }

  /** End of stream: the unterminated rest, if any. */
  end(): string | undefined {
    if (this.pending.length === 0) return undefined;
    const rest = decodeLine(Buffer.concat(this.pending));
    this.pending = [];
    return rest;
  }
}

function decodeLine(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}

/** Parses one stdout line into a frame; `undefined` for blank lines, non-JSON and non-objects. */
export function parseFrameLine(line: string): Record<string, unknown> | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // Foreign output on stdout (protocol.md §1.2: hosts skip lines that are not JSON objects).
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  if (typeof (value as { type?: unknown }).type !== "string") return undefined;
  return value as Record<string, unknown>;
}
