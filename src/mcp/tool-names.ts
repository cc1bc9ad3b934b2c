// The names MCP tools get in front of the model: `mcp__<server>__<tool>`, in the charset and
// length every provider accepts (`^[A-Za-z0-9_-]{1,64}$`). Characters outside it become `_`;
// a name too long is cut and given a hash of the original pair. When two tools end up with the
// same name (`a.b` and `a_b`), the one whose original `server\0tool` sorts first keeps it and
// the others get a hash suffix: the outcome depends only on the set of tools, never on the
// order servers connected in.
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME_LENGTH = 64;
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface ToolKey {
  server: string;
  tool: string;
}

const keyOf = (k: ToolKey) => `${k.server}\0${k.tool}`;

function sanitizePart(s: string): string {
  const out = s.replace(/[^A-Za-z0-9_-]/g, "_");
  return out.length > 0 ? out : "_";
}

function hash8(k: ToolKey, salt = ""): string {
  return createHash("sha256").update(keyOf(k) + salt).digest("hex").slice(0, 8);
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length - 1)}_${suffix}`;
}

/** The name a tool gets when nothing collides with it. */
export function baseToolName(k: ToolKey): string {
  const name = `mcp__${sanitizePart(k.server)}__${sanitizePart(k.tool)}`;
  return name.length <= MAX_TOOL_NAME_LENGTH ? name : withSuffix(name, hash8(k));
}

/** A unique provider-safe name for every tool; the map is keyed by `server\0tool`. */
export function assignToolNames(keys: readonly ToolKey[]): Map<string, string> {
  const groups = new Map<string, ToolKey[]>();
  for (const k of keys) {
    const base = baseToolName(k);
    const group = groups.get(base);
    if (group) group.push(k);
    else groups.set(base, [k]);
  }
  const out = new Map<string, string>();
  const taken = new Set(groups.keys());
  for (const [base, group] of groups) {
    const sorted = [...new Map(group.map((k) => [keyOf(k), k])).values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    out.set(keyOf(sorted[0]), base);
    for (const k of sorted.slice(1)) {
      let name = withSuffix(base, hash8(k));
      for (let n = 1; taken.has(name); n++) name = withSuffix(base, hash8(k, String(n)));
      taken.add(name);
      out.set(keyOf(k), name);
    }
  }
  return out;
}

export function toolKeyString(k: ToolKey): string {
  return keyOf(k);
}
