// Identifiers: snowflake ids (16 lowercase hex chars, time-ordered) and 8-hex entry ids.
import { randomBytes } from "node:crypto";

const EPOCH_2015 = Date.UTC(2015, 0, 1);
let counter = randomBytes(3).readUIntBE(0, 3) & 0x3fffff;

/** 16 lowercase hex chars: milliseconds since 2015-01-01 in the upper bits, a counter in the low 22. */
export function snowflake(now: number = Date.now()): string {
  counter = (counter + 1) & 0x3fffff;
  const value = (BigInt(now - EPOCH_2015) << 22n) | BigInt(counter);
  return value.toString(16).padStart(16, "0").slice(-16);
}

// Random bytes drawn 4 KiB at a time: one call into the OS's generator per 1,024 ids instead of one per id.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = POOL_BYTES;

/** 8 lowercase hex chars, unique among `taken` when given. */
export function entryId(taken?: { has(id: string): boolean }): string {
  for (;;) {
    if (poolAt + 4 > pool.length) {
      pool = randomBytes(POOL_BYTES);
      poolAt = 0;
    }
    const id = pool.toString("hex", poolAt, poolAt + 4);
    poolAt += 4;
    if (!taken || !taken.has(id)) return id;
  }
}

/** The creation time (ms since the Unix epoch) a `snowflake` id carries, or undefined for anything else. */
export function snowflakeTime(id: string): number | undefined {
  if (!/^[0-9a-f]{16}$/.test(id)) return undefined;
  return Number(BigInt(`0x${id}`) >> 22n) + EPOCH_2015;
}
