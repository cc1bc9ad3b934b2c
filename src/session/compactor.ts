// Applies compaction to the session: manual `compact`, the threshold
// check after a run and before a prompt, and overflow recovery. The cut point and the summary
// come from ./compaction/; this file decides when, records the entry and rebuilds context.
// The summarising code (prepare, prompts, serializer) is imported on first use: startup and
// sessions that never compact do not parse it.
import { resolveThinkingLevel } from "../providers/models/thinking.js";
import { PithError, errorMessage } from "../shared/errors.js";
import type { StreamFn } from "../providers/types.js";
import type { AgentMessage, AssistantMessage, CompactionResult, Model, SessionEvent } from "../shared/types.js";
import { lastAssistant } from "../shared/types.js";
import { isContextOverflow } from "./compaction/overflow.js";
import { shouldCompact, usageTokens } from "./compaction/tokens.js";
import type { RunCompactionOptions } from "./compaction/compact.js";
import type { CompactionPreparation } from "./compaction/prepare.js";
import type { Conversation } from "./conversation.js";
import type { Continuation } from "./run-controller.js";
import type { SessionSettings } from "./settings.js";
import type { SessionEntry } from "../store/entry-types.js";
import { contextItemsFromPath } from "../store/build-context.js";

export const CONTINUE_PROMPT = "Continue if you have next steps.";
export const OVERFLOW_RETRIED =
  "the request still overflows after one compact-and-retry attempt; reduce the context or switch to a larger-context model";

interface EndFields {
  result?: CompactionResult;
  aborted?: boolean;
  errorMessage?: string;
  skipped?: boolean;
}

export interface CompactorOptions {
  /** The context compacted: its log gets the `compaction` entry, then it reloads. */
  conversation: Conversation;
  /** The session's live settings (`compaction`, `retry`). */
  settings: SessionSettings;
  /** Whether automatic compaction is on (setting and strategy). */
  isAutoEnabled(): boolean;
  stream: StreamFn;
  requireModel(): Model;
  requireApiKey(model: Model): Promise<string | undefined>;
  emit(event: SessionEvent): void;
  /** Extensions around each compaction (`session_before_compact`, `session_compact`, `session_compact_failed`). */
  observer?: CompactionObserver;
}

export type CompactionReason = "manual" | "threshold" | "overflow";

/** Why a compaction runs and whether the interrupted request is sent again afterwards. */
export interface CompactionTrigger {
  reason: CompactionReason;
  willRetry: boolean;
}

/** What an observer may answer before the summary is made: cancel, or its own compaction. */
export interface CompactionOverride {
  cancel?: boolean;
  compaction?: unknown;
}

export interface CompactionObserver {
  before(start: CompactionTrigger & { preparation: CompactionPreparation; path: SessionEntry[]; customInstructions?: string; signal: AbortSignal }): Promise<CompactionOverride | undefined>;
  compacted(entry: SessionEntry, how: CompactionTrigger & { fromExtension: boolean }): Promise<void>;
  failed(how: CompactionTrigger & { fromExtension: boolean; aborted: boolean; errorMessage?: string }): Promise<void>;
}

export class Compactor {
  private controller: AbortController | undefined;
  /** One compact-and-retry per prompt: a retried request that overflows again is not retried. */
  private overflowRetried = false;
  private readonly conversation: Conversation;
  private readonly settings: SessionSettings;

  constructor(private readonly o: CompactorOptions) {
    this.conversation = o.conversation;
    this.settings = o.settings;
  }

  get isCompacting(): boolean {
    return this.controller !== undefined;
  }

  /** Cancels a running compaction; the session stays exactly as it was. */
  abort(): void {
    this.controller?.abort();
  }

  /**
   * Manual `compact` (the session has stopped its run first): checks that there is a model, a
   * key and something new to compact, then returns the summarising job (no auto_compaction
   * events) for the session to run as busy work.
   */
  async prepareManual(customInstructions?: string): Promise<() => Promise<CompactionResult>> {
    const model = this.o.requireModel();
    const apiKey = await this.o.requireApiKey(model);
    const path = this.conversation.log.contextBranch();
    if (path.length > 0 && path[path.length - 1].type === "compaction") throw new PithError("invalid_request", "Already compacted");
    return () => this.summarizeAndApply(model, apiKey, path, customInstructions, { reason: "manual", willRetry: false });
  }

  /**
   * Pre-flight of a prompt: the previous reply may already have left the context too large.
   * A reply older than the latest compaction measured the context before it, so it is ignored.
   */
  async beforePrompt(signal: AbortSignal): Promise<void> {
    this.overflowRetried = false;
    const last = lastAssistant(this.conversation.messages);
    if (!last || !this.o.isAutoEnabled() || !this.conversation.model) return;
    if (last.timestamp < latestCompactionTime(this.conversation.messages)) return;
    if (this.isOverflowToRecover(last)) {
      this.conversation.dropTrailingError();
      await this.auto("overflow", signal);
      return;
    }
    if (last.stopReason !== "error" && this.overThreshold(last)) await this.auto("threshold", signal);
  }

  /** After a run: overflow recovery (retry after compaction) or threshold compaction. */
  async afterRun(last: AssistantMessage | undefined, overflow: boolean, signal: AbortSignal): Promise<Continuation | undefined> {
    if (!last || !this.conversation.model || !this.o.isAutoEnabled()) return undefined;
    if (overflow && this.isOverflowToRecover(last)) {
      if (this.overflowRetried) {
        this.o.emit({ type: "auto_compaction_start", reason: "overflow", action: "context-full" });
        this.emitEnd({ errorMessage: `Context overflow recovery failed: ${OVERFLOW_RETRIED}` }, false);
        return { kind: "stop" };
      }
      this.overflowRetried = true;
      this.conversation.dropTrailingError();
      const ok = await this.auto("overflow", signal);
      if (!ok || signal.aborted) return { kind: "stop" };
      this.conversation.dropTrailingError();
      return { kind: "continue", prompts: [] };
    }
    if (last.stopReason !== "error") this.overflowRetried = false;
    if (last.stopReason === "error" || last.stopReason === "aborted" || !this.overThreshold(last)) return undefined;
    const ok = await this.auto("threshold", signal);
    if (!ok || signal.aborted) return { kind: "stop" };
    if (!this.settings.compaction.autoContinue) return undefined;
    return { kind: "continue", prompts: [{ role: "developer", content: CONTINUE_PROMPT, attribution: "agent", timestamp: Date.now() }] };
  }

  /** An overflow error from the current model (another model's limit says nothing about this one). */
  private isOverflowToRecover(last: AssistantMessage): boolean {
    const model = this.conversation.model;
    if (!model || last.stopReason !== "error" || last.provider !== model.provider || last.model !== model.id) return false;
    return isContextOverflow(last, model.contextWindow);
  }

  private overThreshold(last: AssistantMessage): boolean {
    const model = this.conversation.model as Model;
    return shouldCompact(usageTokens(last.usage), model.contextWindow, this.settings.compaction);
  }

  /** One automatic compaction with its start/end events. Resolves true on success. */
  private async auto(reason: "threshold" | "overflow", signal: AbortSignal): Promise<boolean> {
    const willRetry = reason === "overflow";
    this.o.emit({ type: "auto_compaction_start", reason, action: "context-full" });
    const end = (fields: EndFields) => this.emitEnd(fields, willRetry);
    const model = this.conversation.model;
    const path = this.conversation.log.contextBranch();
    if (!model || (path.length > 0 && path[path.length - 1].type === "compaction")) {
      end({ skipped: true });
      return false;
    }
    try {
      const apiKey = await this.o.requireApiKey(model);
      const result = await this.summarizeAndApply(model, apiKey, path, undefined, { reason, willRetry }, signal);
      end({ result });
      return true;
    } catch (err) {
      if (err instanceof PithError && err.code === "aborted") end({ aborted: true });
      else if (err instanceof PithError && err.message.startsWith("Nothing to compact")) end({ skipped: true });
      else {
        const prefix = willRetry ? "Context overflow recovery failed: " : "Auto-compaction failed: ";
        end({ errorMessage: prefix + errorMessage(err) });
      }
      return false;
    }
  }

  /** `auto_compaction_end`; `willRetry` only holds when there is a result. */
  private emitEnd(fields: EndFields, willRetry: boolean): void {
    this.o.emit({
      type: "auto_compaction_end",
      action: "context-full",
      aborted: fields.aborted ?? false,
      willRetry: fields.result ? willRetry : false,
      ...fields,
    });
  }

  /** How the summary request is made: the reserve, effort "high" (clamped; none for non-reasoning models), retries. */
  private summaryOptions(model: Model): Pick<RunCompactionOptions, "reserveTokens" | "thinkingLevel" | "retry" | "timeouts"> {
    return { reserveTokens: this.settings.compaction.reserveTokens, thinkingLevel: resolveThinkingLevel(model, "high"), ...summaryRetry(this.settings.retry) };
  }

  private async summarizeAndApply(
    model: Model,
    apiKey: string | undefined,
    path: SessionEntry[],
    customInstructions: string | undefined,
    trigger: CompactionTrigger,
    outer?: AbortSignal,
  ): Promise<CompactionResult> {
    const controller = new AbortController();
    this.controller = controller;
    const onOuter = () => controller.abort();
    outer?.addEventListener("abort", onOuter, { once: true });
    let fromExtension = false;
    try {
      const [{ prepareCompaction }, { runCompaction }] = await loadCompaction();
      if (controller.signal.aborted) throw new PithError("aborted", "Compaction cancelled");
      const { items, compaction } = contextItemsFromPath(path);
      const previous = compaction ? { summary: compaction.summary, details: compaction.details } : undefined;
      const prep = prepareCompaction(items, previous, { keepRecentTokens: this.settings.compaction.keepRecentTokens });
      if (!prep) throw new PithError("invalid_request", "Nothing to compact (session too small)");
      // An extension may cancel the compaction or bring its own summary instead of the model's.
      const override = await this.o.observer?.before({ ...trigger, preparation: prep, path, customInstructions, signal: controller.signal });
      if (override?.cancel === true) controller.abort();
      if (controller.signal.aborted) throw new PithError("aborted", "Compaction cancelled");
      fromExtension = override?.compaction !== undefined;
      const result = fromExtension
        ? extensionCompaction(override?.compaction, prep.tokensBefore, path)
        : await runCompaction(prep, {
            stream: this.o.stream,
            model,
            apiKey,
            signal: controller.signal,
            customInstructions,
            ...this.summaryOptions(model),
          });
      if (controller.signal.aborted) throw new PithError("aborted", "Compaction cancelled");
      const entry = this.conversation.log.append({
        type: "compaction",
        summary: result.summary,
        shortSummary: result.shortSummary,
        firstKeptEntryId: result.firstKeptEntryId,
        tokensBefore: result.tokensBefore,
        details: result.details,
        ...(fromExtension ? { fromExtension } : {}),
      });
      this.conversation.load();
      await this.o.observer?.compacted(entry, { ...trigger, fromExtension });
      return result;
    } catch (err) {
      const aborted = controller.signal.aborted;
      await this.o.observer?.failed({ ...trigger, fromExtension, aborted, ...(aborted ? {} : { errorMessage: errorMessage(err) }) });
      if (aborted) throw new PithError("aborted", "Compaction cancelled");
      throw err;
    } finally {
      outer?.removeEventListener("abort", onOuter);
      this.controller = undefined;
    }
  }
}

/**
 * The compaction a `session_before_compact` handler supplied (pi's CompactionResult): a summary
 * and the id of the first entry kept, which must be on the compacted branch.
 */
function extensionCompaction(value: unknown, tokensBefore: number, path: SessionEntry[]): CompactionResult {
  const c = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof c.summary !== "string" || c.summary.trim() === "") throw new PithError("invalid_request", "session_before_compact: the extension's compaction needs a summary");
  const kept = c.firstKeptEntryId;
  if (typeof kept !== "string" || !path.some((e) => e.id === kept)) {
    throw new PithError("invalid_request", "session_before_compact: the extension's compaction needs a firstKeptEntryId on the compacted branch");
  }
  return {
    summary: c.summary,
    firstKeptEntryId: kept,
    tokensBefore: typeof c.tokensBefore === "number" && Number.isFinite(c.tokensBefore) ? c.tokensBefore : tokensBefore,
    ...(c.details !== undefined ? { details: c.details } : {}),
  };
}

/** A summary request is re-sent like a reply (retry settings) and bounded by the same stream limits. */
function summaryRetry(retry: SessionSettings["retry"]): Pick<RunCompactionOptions, "retry" | "timeouts"> {
  const timeouts = { firstByteTimeoutMs: retry.firstByteTimeoutMs, idleTimeoutMs: retry.idleTimeoutMs };
  return retry.enabled ? { retry, timeouts } : { timeouts };
}

/** The summarising modules, loaded once on the first compaction. */
function loadCompaction(): Promise<[typeof import("./compaction/prepare.js"), typeof import("./compaction/compact.js")]> {
  return Promise.all([import("./compaction/prepare.js"), import("./compaction/compact.js")]);
}

/** When the context's compaction summary was written (0 when there is none). */
function latestCompactionTime(messages: AgentMessage[]): number {
  let at = 0;
  for (const m of messages) if (m.role === "compactionSummary") at = Math.max(at, m.timestamp);
  return at;
}

