// HTML escaping: every piece of session content goes through here before it reaches the page.

const MAP: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for element content and quoted attribute values. */
export function esc(value: unknown): string {
  const s = typeof value === "string" ? value : value === undefined ? "" : String(value);
  return s.replace(/[&<>"']/g, (c) => MAP[c]);
}

/** Pretty JSON of arbitrary data, escaped. */
export function escJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch (err) {
    text = `[unserialisable: ${err instanceof Error ? err.message : String(err)}]`;
  }
  return esc(text);
}

/** First `max` characters of `text` on one line. */
export function preview(text: string, max = 120): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

const MIME = /^image\/[a-z0-9.+-]{1,40}$/i;
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;

/** A `data:` URI for an image block, or undefined when the mime type or data is not plausible. */
export function imageDataUri(mimeType: string, data: string): string | undefined {
  if (!MIME.test(mimeType) || !BASE64.test(data)) return undefined;
  return `data:${mimeType.toLowerCase()};base64,${data.replace(/\s+/g, "")}`;
}
