// One error base for everything pith throws on purpose. `code` is stable; `message` is for people.

export type PithErrorCode =
  | "invalid_request"
  | "not_found"
  | "busy"
  | "no_model"
  | "no_api_key"
  | "aborted"
  | "io"
  | "config"
  | "unavailable"
  | "internal";

export class PithError extends Error {
  readonly code: PithErrorCode;
  constructor(code: PithErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PithError";
    this.code = code;
  }
}

/** The message of anything thrown, never "undefined". */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
