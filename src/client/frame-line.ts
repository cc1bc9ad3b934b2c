// One stdout line of the agent → a frame, or nothing for foreign output.

/** Parses one stdout line into a frame; `undefined` for blank lines, non-JSON and non-objects. */
export function parseFrameLine(line: string): Record<string, unknown> | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // Foreign output on stdout (hosts skip lines that are not JSON objects).
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  if (typeof (value as { type?: unknown }).type !== "string") return undefined;
  return value as Record<string, unknown>;
}
