// Text of a value that came from outside (a host, a model, a file) for use inside a message.
// Never calls the value's own toString/valueOf: `{"toString":1}` would throw in a template literal.

/** Strings as they are, other primitives as `String()` prints them, objects and arrays as JSON. */
export function displayText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? Object.prototype.toString.call(value);
  } catch {
    // Too deep or cyclic: its kind is all that can be shown.
    return Object.prototype.toString.call(value);
  }
}
