// Head/tail truncation by lines and bytes. Byte cuts never split a UTF-8 character.

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** Grep/ls output lines longer than this are cut. */
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** Head truncation only: the first line alone exceeds the byte limit (content is empty). */
  firstLineExceedsLimit: boolean;
  /** Tail truncation only: the kept part starts inside a line longer than the byte limit. */
  lastLinePartial: boolean;
  maxLines: number;
  maxBytes: number;
}

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

/** "512B", "1.5KB", "2.0MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function splitLines(text: string): string[] {
  return text.split("\n");
}

function base(text: string, lines: string[], opts: TruncationOptions) {
  return {
    totalLines: lines.length,
    totalBytes: Buffer.byteLength(text, "utf8"),
    maxLines: opts.maxLines ?? DEFAULT_MAX_LINES,
    maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
  };
}

/** Keeps the beginning: whole lines only, up to maxLines and maxBytes. */
export function truncateHead(text: string, opts: TruncationOptions = {}): TruncationResult {
  const lines = splitLines(text);
  const b = base(text, lines, opts);
  const untouched = { ...b, content: text, truncated: false, truncatedBy: null, outputLines: b.totalLines, outputBytes: b.totalBytes, firstLineExceedsLimit: false, lastLinePartial: false };
  if (b.totalLines <= b.maxLines && b.totalBytes <= b.maxBytes) return untouched;
  if (Buffer.byteLength(lines[0], "utf8") > b.maxBytes) {
    return { ...untouched, content: "", truncated: true, truncatedBy: "bytes", outputLines: 0, outputBytes: 0, firstLineExceedsLimit: true };
  }
  const out: string[] = [];
  let bytes = 0;
  let by: "lines" | "bytes" = "lines";
  for (let i = 0; i < lines.length && i < b.maxLines; i++) {
    const size = Buffer.byteLength(lines[i], "utf8") + (i > 0 ? 1 : 0);
    if (bytes + size > b.maxBytes) {
      by = "bytes";
      break;
    }
    out.push(lines[i]);
    bytes += size;
  }
  const content = out.join("\n");
  return { ...untouched, content, truncated: true, truncatedBy: by, outputLines: out.length, outputBytes: Buffer.byteLength(content, "utf8") };
}

/** Keeps the end: up to maxLines and maxBytes; a single huge last line keeps its UTF-8-safe tail. */
export function truncateTail(text: string, opts: TruncationOptions = {}): TruncationResult {
  const lines = splitLines(text);
  const b = base(text, lines, opts);
  const untouched = { ...b, content: text, truncated: false, truncatedBy: null, outputLines: b.totalLines, outputBytes: b.totalBytes, firstLineExceedsLimit: false, lastLinePartial: false };
  if (b.totalLines <= b.maxLines && b.totalBytes <= b.maxBytes) return untouched;
  const out: string[] = [];
  let bytes = 0;
  let by: "lines" | "bytes" = "lines";
  let partial = false;
  for (let i = lines.length - 1; i >= 0 && out.length < b.maxLines; i--) {
    const size = Buffer.byteLength(lines[i], "utf8") + (out.length > 0 ? 1 : 0);
    if (bytes + size > b.maxBytes) {
      by = "bytes";
      if (out.length === 0) {
        out.unshift(tailBytes(lines[i], b.maxBytes));
        partial = true;
      }
      break;
    }
    out.unshift(lines[i]);
    bytes += size;
  }
  const content = out.join("\n");
  return { ...untouched, content, truncated: true, truncatedBy: by, outputLines: out.length, outputBytes: Buffer.byteLength(content, "utf8"), lastLinePartial: partial };
}

/** The longest UTF-8-safe prefix of `text` that fits in `maxBytes`. */
export function headBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

/** The longest UTF-8-safe suffix of `text` that fits in `maxBytes`. */
export function tailBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return text;
  let start = buf.length - maxBytes;
  while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString("utf8");
}

/** Cuts one line to `max` characters; reports whether it was cut. */
export function truncateLine(line: string, max = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
  if (line.length <= max) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, max)}... [truncated]`, wasTruncated: true };
}
