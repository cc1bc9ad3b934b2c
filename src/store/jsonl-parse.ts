// Lenient JSONL parsing of a session file: torn and corrupt lines are skipped and reported.

/** What a raw read of a session file yields, before migration. */
export interface ParsedSessionFile {
  /** The first line, parsed; undefined when unreadable or not an object. */
  first: Record<string, unknown> | undefined;
  /** Every later line that parsed to a JSON object, in file order. */
  records: Record<string, unknown>[];
  warnings: string[];
  /**
   * Byte length of the file prefix that can be appended to as is: the file length when it ends
   * with "\n", the end of the last complete line when the tail is torn.
   */
  appendOffset: number;
  /** The last line parsed but lacks its "\n": write one before appending. */
  needsNewline: boolean;
  /** Lines after the header that were not JSON objects (torn or corrupt). */
  skipped: number;
}

const LF = 0x0a;

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch (err) {
    void err; // a corrupt line is reported by the caller as a warning
    return undefined;
  }
}

/**
 * Fast path for the common case, a clean file: one JSON.parse of all lines as an array is much
 * cheaper than one parse per line. Any anomaly (torn or corrupt line, a non-object, a blank
 * line) returns undefined and the careful line-by-line path decides what to report.
 */
function parseCleanFile(buf: Buffer): ParsedSessionFile | undefined {
  if (buf.length === 0) return undefined;
  const text = buf.toString("utf8");
  const lines = text.split("\n");
  const endsWithLf = lines[lines.length - 1] === "";
  if (endsWithLf) lines.pop();
  if (lines.some((l) => l.trim() === "")) return undefined;
  let values: unknown[];
  try {
    values = JSON.parse(`[${lines.join(",")}]`) as unknown[];
  } catch (err) {
    void err; // not clean: the line-by-line path reports what is wrong
    return undefined;
  }
  if (values.length !== lines.length) return undefined;
  for (const v of values) if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  const objects = values as Record<string, unknown>[];
  return { first: objects[0], records: objects.slice(1), warnings: [], appendOffset: buf.length, needsNewline: !endsWithLf, skipped: 0 };
}

/** Split `buf` on LF and parse each line; never throws. */
export function parseSessionBuffer(buf: Buffer, label: string): ParsedSessionFile {
  const clean = parseCleanFile(buf);
  if (clean) return clean;
  const out: ParsedSessionFile = { first: undefined, records: [], warnings: [], appendOffset: buf.length, needsNewline: false, skipped: 0 };
  let start = 0;
  let lineNo = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(LF, start);
    const end = nl === -1 ? buf.length : nl;
    lineNo++;
    const text = buf.toString("utf8", start, end);
    const isLast = nl === -1;
    if (text.trim() !== "") {
      const obj = parseObject(text);
      if (lineNo === 1) out.first = obj;
      else if (obj) out.records.push(obj);
      else out.skipped++;
      if (!obj && isLast) {
        out.warnings.push(`${label}: line ${lineNo}: torn last line (${end - start} bytes) ignored`);
        out.appendOffset = start;
      } else if (!obj && lineNo > 1) {
        out.warnings.push(`${label}: line ${lineNo}: not a JSON object, skipped`);
      } else if (obj && isLast) {
        out.needsNewline = true;
      }
    }
    if (isLast) break;
    start = nl + 1;
  }
  return out;
}
