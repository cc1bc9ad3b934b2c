// Typed checkpoint failures: `reason` says which; `code` maps onto pith's error codes.
import { PithError, type PithErrorCode } from "../shared/errors.js";

export type CheckpointErrorReason =
  /** No checkpoint has this id (nothing was changed). */
  | "unknown_checkpoint"
  /** The checkpoint existed but its files were pruned (nothing was changed). */
  | "pruned"
  /** git is missing or broken, or the store gave up on this folder. */
  | "unavailable"
  /** A `paths` entry lies outside the cwd. */
  | "invalid_path"
  /** A store option is out of range. */
  | "invalid_option"
  /** A git run failed or timed out (the message carries git's own words). */
  | "git_failed"
  /** The caller's signal fired. */
  | "aborted";

const CODES: Record<CheckpointErrorReason, PithErrorCode> = {
  unknown_checkpoint: "not_found",
  pruned: "not_found",
  unavailable: "unavailable",
  invalid_path: "invalid_request",
  invalid_option: "config",
  git_failed: "io",
  aborted: "aborted",
};

export class CheckpointError extends PithError {
  readonly reason: CheckpointErrorReason;
  constructor(reason: CheckpointErrorReason, message: string, options?: { cause?: unknown }) {
    super(CODES[reason], message, options);
    this.name = "CheckpointError";
    this.reason = reason;
  }
}
