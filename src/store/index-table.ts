// The columns of a session index, one row per entry in file order, and its id lookup. Ids are
// kept as their bytes in one pool with an open-addressing hash table over them, not as 100,000
// strings in a Map: indexing a large file then allocates almost nothing per line.
const EMPTY = 0;
/** A slot whose id was removed (probing continues past it). */
const TOMBSTONE = -1;

function hashBytes(buf: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

export class IndexTable {
  n = 0;
  offsets = new Float64Array(1024);
  lengths = new Int32Array(1024);
  /** Row of the parent (-1: none or not in the file). */
  parents = new Int32Array(1024);
  kinds = new Uint8Array(1024);
  /** 1-based record number after the header (for the same warnings a full load gives). */
  recNos = new Int32Array(1024);
  /** A parentId that names no row (kept as written). */
  readonly dangling = new Map<number, string>();
  /** A parentId changed by relinking over a left-out entry. */
  readonly relinked = new Map<number, string | null>();
  readonly customTypes = new Map<number, string>();
  readonly firstKept = new Map<number, string>();

  private pool = Buffer.allocUnsafe(64 * 1024);
  private poolUsed = 0;
  private idStarts = new Int32Array(1024);
  private idLens = new Int32Array(1024);
  /** row + 1 of the latest entry per id; EMPTY or TOMBSTONE. */
  private slots: Int32Array;
  private filled = 0;

  /** `expectedRows`: a guess of the row count, so the id table is not rebuilt while it fills. */
  constructor(expectedRows = 1024) {
    let size = 4096;
    while (size < expectedRows * 2 && size < 1 << 22) size *= 2;
    this.slots = new Int32Array(size);
  }

  /** Adds a row whose id is `buf[from..to)` (UTF-8). It is not findable until `setLatest`. */
  push(buf: Uint8Array, from: number, to: number, offset: number, length: number, kind: number, recNo: number): number {
    if (this.n === this.offsets.length) this.grow();
    const i = this.n++;
    const len = to - from;
    if (this.poolUsed + len > this.pool.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.pool.length * 2, this.poolUsed + len));
      this.pool.copy(bigger, 0, 0, this.poolUsed);
      this.pool = bigger;
    }
    const pool = this.pool;
    const at = this.poolUsed;
    for (let k = 0; k < len; k++) pool[at + k] = buf[from + k]; // ids are short: no view object per line
    this.idStarts[i] = this.poolUsed;
    this.idLens[i] = len;
    this.poolUsed += len;
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.parents[i] = -1;
    this.kinds[i] = kind;
    this.recNos[i] = recNo;
    return i;
  }

  pushId(id: string, offset: number, length: number, kind: number, recNo: number): number {
    const bytes = Buffer.from(id, "utf8");
    return this.push(bytes, 0, bytes.length, offset, length, kind, recNo);
  }

  idOf(row: number): string {
    return this.pool.toString("utf8", this.idStarts[row], this.idStarts[row] + this.idLens[row]);
  }

  /** Whether row `row`'s id is the bytes `buf[from..to)`. */
  sameId(row: number, buf: Uint8Array, from: number, to: number): boolean {
    const len = this.idLens[row];
    if (to - from !== len) return false;
    const start = this.idStarts[row];
    for (let i = 0; i < len; i++) if (this.pool[start + i] !== buf[from + i]) return false;
    return true;
  }

  /** The latest findable row with the id `buf[from..to)`, or -1. */
  latest(buf: Uint8Array, from: number, to: number): number {
    const mask = this.slots.length - 1;
    for (let s = hashBytes(buf, from, to) & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s];
      if (v === EMPTY) return -1;
      if (v > 0 && this.sameId(v - 1, buf, from, to)) return v - 1;
    }
  }
  latestOf(id: string): number {
    const bytes = Buffer.from(id, "utf8");
    return this.latest(bytes, 0, bytes.length);
  }

  /** Makes `row` the row its id finds; returns the row it replaced, or -1. */
  setLatest(row: number): number {
    if ((this.filled + 1) * 2 > this.slots.length) this.rehash();
    const start = this.idStarts[row];
    const end = start + this.idLens[row];
    const mask = this.slots.length - 1;
    for (let s = hashBytes(this.pool, start, end) & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s];
      if (v === EMPTY) {
        this.slots[s] = row + 1;
        this.filled++;
        return -1;
      }
      if (v > 0 && this.sameId(v - 1, this.pool, start, end)) {
        this.slots[s] = row + 1;
        return v - 1;
      }
    }
  }

  /** No row is found by `id` any more. */
  clearLatest(id: string): void {
    const bytes = Buffer.from(id, "utf8");
    const mask = this.slots.length - 1;
    for (let s = hashBytes(bytes, 0, bytes.length) & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s];
      if (v === EMPTY) return;
      if (v > 0 && this.sameId(v - 1, bytes, 0, bytes.length)) {
        this.slots[s] = TOMBSTONE;
        return;
      }
    }
  }

  /** The parentId of row `i` as the entry carries it after relinking. */
  parentIdOf(i: number): string | null {
    if (this.relinked.has(i)) return this.relinked.get(i) as string | null;
    const p = this.parents[i];
    return p >= 0 ? this.idOf(p) : (this.dangling.get(i) ?? null);
  }

  private rehash(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.filled = 0;
    for (const v of old) if (v > 0) this.setLatest(v - 1);
  }

  private grow(): void {
    const size = this.n * 2;
    const re = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.offsets = re(this.offsets, (k) => new Float64Array(k));
    this.lengths = re(this.lengths, (k) => new Int32Array(k));
    this.parents = re(this.parents, (k) => new Int32Array(k));
    this.kinds = re(this.kinds, (k) => new Uint8Array(k));
    this.recNos = re(this.recNos, (k) => new Int32Array(k));
    this.idStarts = re(this.idStarts, (k) => new Int32Array(k));
    this.idLens = re(this.idLens, (k) => new Int32Array(k));
  }
}
