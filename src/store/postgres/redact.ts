// Keeping the session database's URL and password out of everything pith says: frames, stderr,
// errors. Every message that may carry them (a driver error, a connection failure) passes here
// before it leaves the store.

/** Anything URL-shaped for PostgreSQL, whatever it holds. */
const PG_URL = /postgres(?:ql)?:\/\/[^\s"'<>]*/gi;

/** `text` with each secret (and every postgres:// URL) replaced by `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // longest first: a URL contains its password, which must not be left half-replaced
  for (const s of [...secrets].filter((v) => v.length > 0).sort((a, b) => b.length - a.length)) out = out.split(s).join("***");
  return out.replace(PG_URL, "postgres://***");
}

/** The forms a secret may take in a message: as given, URL-decoded, URL-encoded. */
export function secretForms(value: string | undefined): string[] {
  if (value === undefined || value === "") return [];
  const forms = new Set([value, encodeURIComponent(value)]);
  try {
    forms.add(decodeURIComponent(value));
  } catch (err) {
    void err; // not percent-encoded: the other forms cover it
  }
  return [...forms];
}
