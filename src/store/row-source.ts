// Where an indexed tree reads its rows back from: a session file by byte offset (neighbouring
// lines in one read), or a database by row number (postgres/). The index holds each row's place
// (`offsets`) and length; the source turns places into line texts.
import { PithError, errorMessage } from "../shared/errors.js";
import { SCAN_CHUNK, readFully } from "./line-scan.js";
import { withReadFd, type IndexTable } from "./session-index.js";

export interface RowSource {
  /**
   * Calls `each(j, text)` for every `rows[j]`, in order; `text` is the row's line without its LF,
   * undefined when the store no longer holds it.
   */
  read(t: IndexTable, rows: readonly number[], each: (j: number, text: string | undefined) => void): void;
  /** How a warning places row `row` ("at byte 1234"). */
  where(t: IndexTable, row: number): string;
}

/** The rows of a session file, read by byte offset. */
export function fileRowSource(file: string): RowSource {
  return {
    read(t, rows, each) {
      try {
        withReadFd(file, (fd) => readSpans(fd, t, rows, each));
      } catch (err) {
        if (err instanceof PithError) throw err;
        throw new PithError("io", `Cannot read session file ${file}: ${errorMessage(err)}`, { cause: err });
      }
    },
    where: (t, row) => `at byte ${t.offsets[row]}`,
  };
}

/** Reads neighbouring lines together, up to one chunk per read. */
function readSpans(fd: number, t: IndexTable, rows: readonly number[], each: (j: number, text: string | undefined) => void): void {
  let buf = Buffer.allocUnsafe(Math.min(SCAN_CHUNK, spanBytes(t, rows)));
  for (let i = 0; i < rows.length; ) {
    const first = rows[i];
    const spanStart = t.offsets[first];
    let spanEnd = spanStart + t.lengths[first];
    let j = i;
    while (j + 1 < rows.length) {
      const r = rows[j + 1];
      const end = t.offsets[r] + t.lengths[r];
      if (t.offsets[r] < spanEnd || end - spanStart > SCAN_CHUNK) break;
      spanEnd = end;
      j++;
    }
    const need = spanEnd - spanStart;
    if (buf.length < need) buf = Buffer.allocUnsafe(need);
    const got = readFully(fd, buf, need, spanStart);
    for (let k = i; k <= j; k++) {
      const r = rows[k];
      const at = t.offsets[r] - spanStart;
      each(k, at + t.lengths[r] <= got ? buf.toString("utf8", at, at + t.lengths[r]) : undefined);
    }
    i = j + 1;
  }
}

function spanBytes(t: IndexTable, rows: readonly number[]): number {
  let max = 0;
  for (const r of rows) max = Math.max(max, t.lengths[r]);
  return Math.max(max, Math.min(SCAN_CHUNK, rows.length * 4096));
}
