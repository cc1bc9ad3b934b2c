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

/** 8 lowercase hex chars, unique among `taken` when given. */
export function entryId(taken?: { has(id: string): boolean }): string {
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!taken || !taken.has(id)) return id;
  }
}

/** The creation time (ms since the Unix epoch) a `snowflake` id carries, or undefined for anything else. */
export function snowflakeTime(id: string): number | undefined {
  if (!/^[0-9a-f]{16}$/.test(id)) return undefined;
  return Number(BigInt(`0x${id}`) >> 22n) + EPOCH_2015;
}
