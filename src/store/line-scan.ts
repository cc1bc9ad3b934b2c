// Streams a file through one reused fixed-size buffer and hands every LF-separated line to a
// visitor: never the whole file in memory. A line longer than the buffer arrives as its first
// bytes only (`complete: false`); the visitor reads the rest by offset when it needs it.
import fs from "node:fs";

export const SCAN_CHUNK = 1 << 20;
/** How much of an over-long line the visitor sees. */
const PREFIX = 1024;
const LF = 0x0a;

/**
 * Receives one line: `buf` holds its bytes from `start` to `end` (all of them when `complete`,
 * else its first bytes); `offset`/`length` place it in the file (without the LF); `lastByte` is
 * its last byte (-1 when empty); `terminated`: it ends with LF (only the last line may not).
 * Positional, so that a pass over 100,000 lines allocates nothing per line.
 */
export type LineVisitor = (buf: Buffer, start: number, end: number, offset: number, length: number, complete: boolean, lastByte: number, terminated: boolean) => void;

/** Reads `length` bytes at `position` (fewer only at end of file). */
export function readFully(fd: number, buf: Buffer, length: number, position: number): number {
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** Visits every line of the first `size` bytes of `fd`, in file order. */
export function scanLines(fd: number, size: number, visit: LineVisitor, chunkSize = SCAN_CHUNK): void {
  const chunk = Buffer.allocUnsafe(chunkSize);
  let fileOff = 0;
  while (fileOff < size) {
    const n = readFully(fd, chunk, Math.min(chunkSize, size - fileOff), fileOff);
    if (n === 0) return;
    const view = chunk.subarray(0, n);
    let start = 0;
    for (let nl = view.indexOf(LF, start); nl !== -1; nl = view.indexOf(LF, start)) {
      visit(view, start, nl, fileOff + start, nl - start, true, nl > start ? view[nl - 1] : -1, true);
      start = nl + 1;
    }
    if (start === n) {
      fileOff += n;
    } else if (fileOff + n >= size) {
      visit(view, start, n, fileOff + start, n - start, true, view[n - 1], false);
      return;
    } else if (start > 0) {
      fileOff += start; // the next read starts at this line, so it arrives whole
    } else {
      fileOff = longLine(fd, size, view, fileOff, visit);
    }
  }
}

/** A line that does not fit the buffer: keep its first bytes, read on to its end. */
function longLine(fd: number, size: number, first: Buffer, lineOff: number, visit: LineVisitor): number {
  const prefix = Buffer.from(first.subarray(0, Math.min(PREFIX, first.length)));
  const chunk = first;
  let last = first[first.length - 1];
  let pos = lineOff + first.length;
  while (pos < size) {
    const n = readFully(fd, chunk, Math.min(chunk.length, size - pos), pos);
    if (n === 0) break;
    const nl = chunk.subarray(0, n).indexOf(LF);
    if (nl !== -1) {
      const lastByte = nl > 0 ? chunk[nl - 1] : last;
      visit(prefix, 0, prefix.length, lineOff, pos + nl - lineOff, false, lastByte, true);
      return pos + nl + 1;
    }
    last = chunk[n - 1];
    pos += n;
  }
  visit(prefix, 0, prefix.length, lineOff, pos - lineOff, false, last, false);
  return size;
}
