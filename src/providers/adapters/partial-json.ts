// Best-effort parsing of an incomplete JSON object (streamed tool-call arguments).

/** Parses `text` as a JSON object, closing any open strings/arrays/objects. Never throws. */
export function parsePartialJson(text: string): Record<string, unknown> {
  const whole = tryObject(text);
  if (whole) return whole;
  let candidate = text;
  // Retreat to shorter prefixes (dropping a half-written key or value) until one closes cleanly.
  for (let attempt = 0; attempt < 8 && candidate.length > 0; attempt++) {
    const closed = tryObject(close(candidate));
    if (closed) return closed;
    const cut = Math.max(candidate.lastIndexOf(","), candidate.lastIndexOf("{"), candidate.lastIndexOf("["));
    if (cut < 0) break;
    candidate = candidate[cut] === "," ? candidate.slice(0, cut) : candidate.slice(0, cut + 1);
  }
  return {};
}

/** The final arguments: a JSON object, or `{}` when the text is empty or malformed. */
export function parseFinalJson(text: string): { value: Record<string, unknown>; ok: boolean } {
  if (text.trim() === "") return { value: {}, ok: true };
  const value = tryObject(text);
  return value ? { value, ok: true } : { value: {}, ok: false };
}

function tryObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch (err) {
    void err; // incomplete by nature while streaming
    return undefined;
  }
}

/** Appends whatever closes the open string and brackets; trims a dangling `:` or `,`. */
function close(text: string): string {
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") stack.pop();
  }
  let out = text;
  if (inString) out += escaped ? '\\"' : '"';
  out = out.replace(/[\s,:]+$/, "");
  if (/:\s*$/.test(out)) out += "null";
  return out + stack.reverse().join("");
}
