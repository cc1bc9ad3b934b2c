// Bounded nesting of JSON from outside (host frames, session files). JSON.parse takes
// any depth, but every later walk of the value (schema checks, copies, JSON.stringify of a
// response) recurses and would overflow the stack. The boundary measures the depth once, without
// recursion, and refuses a value nested deeper than MAX_JSON_DEPTH with an error naming the field.

/** Deepest nesting of objects and arrays accepted in one inbound frame (the frame itself is 1). */
export const MAX_JSON_DEPTH = 128;

export type JsonPath = (string | number)[];

interface Level {
  value: object;
  keys: string[] | undefined;
  index: number;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

function levelOf(value: object): Level {
  return { value, keys: Array.isArray(value) ? undefined : Object.keys(value), index: 0 };
}

/** The next child of a level, or undefined when all were visited. */
function nextChild(level: Level): { key: string | number; child: unknown } | undefined {
  if (level.keys === undefined) {
    const items = level.value as unknown[];
    if (level.index >= items.length) return undefined;
    const key = level.index++;
    return { key, child: items[key] };
  }
  if (level.index >= level.keys.length) return undefined;
  const key = level.keys[level.index++];
  return { key, child: (level.value as Record<string, unknown>)[key] };
}

/**
 * Whether any object or array in `value` is nested deeper than `maxDepth` levels (the value itself
 * is level 1). The recursion stops at `maxDepth`, so any depth is safe; no arrays are allocated,
 * which makes it the fast check for many values (a session file's entries).
 */
export function exceedsDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  return deeper(value, maxDepth);
}

function deeper(value: unknown, levelsLeft: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levelsLeft <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (deeper(value[i], levelsLeft - 1)) return true;
    return false;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key) && deeper((value as Record<string, unknown>)[key], levelsLeft - 1)) return true;
  }
  return false;
}

/**
 * The path to the first object or array nested deeper than `maxDepth` levels (the value itself
 * is level 1), or undefined when the value is within bounds. Iterative: any depth is safe.
 */
export function findTooDeep(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonPath | undefined {
  if (!isContainer(value)) return undefined;
  const stack: Level[] = [levelOf(value)];
  const path: JsonPath = [];
  while (stack.length > 0) {
    const next = nextChild(stack[stack.length - 1]);
    if (next === undefined) {
      stack.pop();
      path.pop();
      continue;
    }
    if (!isContainer(next.child)) continue;
    path.push(next.key);
    if (stack.length >= maxDepth) return path;
    stack.push(levelOf(next.child));
  }
  return undefined;
}

const MAX_SEGMENTS = 8;
const MAX_KEY_CHARS = 64;

/**
 * The field a too-deep path points at, as `a.b[0].c`: trailing array indices are dropped (the
 * field holds the nested arrays), long key chains are cut with "…", long keys are shortened.
 */
export function fieldOf(path: JsonPath): string {
  let end = path.length;
  while (end > 1 && typeof path[end - 1] === "number") end--;
  const cut = end > MAX_SEGMENTS;
  let out = "";
  for (const seg of path.slice(0, Math.min(end, MAX_SEGMENTS))) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const key = seg.length > MAX_KEY_CHARS ? `${seg.slice(0, MAX_KEY_CHARS)}…` : seg;
      out += out === "" ? key : `.${key}`;
    }
  }
  return cut ? `${out}…` : out;
}

/** `Invalid "<field>": nested deeper than 128 levels` when the value is too deep, else undefined. */
export function checkDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const path = findTooDeep(value, maxDepth);
  if (path === undefined) return undefined;
  return `Invalid "${fieldOf(path)}": nested deeper than ${maxDepth} levels`;
}
