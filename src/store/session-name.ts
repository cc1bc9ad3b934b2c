// Session display names: trimmed, control characters blanked, spaces collapsed.
import { PithError } from "../shared/errors.js";

/** The cleaned name; PithError("invalid_request", "Session name cannot be empty") when nothing is left. */
export function sanitizeSessionName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.trim().replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").replace(/ {2,}/g, " ").trim();
  if (clean === "") throw new PithError("invalid_request", "Session name cannot be empty");
  return clean;
}
