// Extensions around a compaction, in pi's shapes: `session_before_compact` (cancel it, or give
// the summary yourself), `session_compact` with the entry written, `session_compact_failed`.
import type { ExtensionRunner, PiCompactionPreparation } from "../extensions/index.js";
import type { CompactionPreparation } from "./compaction/prepare.js";
import type { CompactionObserver } from "./compactor.js";
import { toPiEntry } from "./extension-session-view.js";
import type { SessionSettings } from "./settings.js";

export function compactionObserver(runner: () => ExtensionRunner | undefined, settings: SessionSettings): CompactionObserver {
  return {
    async before(start) {
      const ext = runner();
      if (!ext?.hasHandlers("session_before_compact")) return undefined;
      return ext.emit({
        type: "session_before_compact",
        preparation: piPreparation(start.preparation, settings),
        branchEntries: start.path.map(toPiEntry),
        ...(start.customInstructions !== undefined ? { customInstructions: start.customInstructions } : {}),
        reason: start.reason,
        willRetry: start.willRetry,
        signal: start.signal,
      });
    },
    async compacted(entry, how) {
      await runner()?.emit({ type: "session_compact", compactionEntry: toPiEntry(entry), fromExtension: how.fromExtension, reason: how.reason, willRetry: how.willRetry });
    },
    async failed(how) {
      await runner()?.emit({
        type: "session_compact_failed",
        reason: how.reason,
        ...(how.errorMessage !== undefined ? { errorMessage: how.errorMessage } : {}),
        aborted: how.aborted,
        willRetry: how.willRetry,
        fromExtension: how.fromExtension,
      });
    },
  };
}

/**
 * pi's CompactionPreparation. pith knows which files were read and which were changed, not
 * whether a change was a write or an edit: changed files are listed under `edited`.
 */
function piPreparation(p: CompactionPreparation, settings: SessionSettings): PiCompactionPreparation {
  return {
    firstKeptEntryId: p.firstKeptEntryId,
    messagesToSummarize: p.messagesToSummarize,
    turnPrefixMessages: p.turnPrefixMessages,
    isSplitTurn: p.splitTurn,
    tokensBefore: p.tokensBefore,
    ...(p.previousSummary !== undefined ? { previousSummary: p.previousSummary } : {}),
    fileOps: { read: new Set(p.fileOperations.readFiles), written: new Set(), edited: new Set(p.fileOperations.modifiedFiles) },
    settings: { enabled: settings.compaction.enabled, reserveTokens: settings.compaction.reserveTokens, keepRecentTokens: p.keepRecentTokens },
  };
}
