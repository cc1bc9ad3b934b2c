// Matching streamed output against TTSR rules. Each stream (text, thinking,
// one per tool call) keeps a bounded sliding window, so a long reply stays cheap to scan.
import type { TtsrRule } from "../shared/types.js";
import { compileCondition, isCompiled, maxMatchLength } from "./condition.js";
import type { LinearRegex } from "../shared/linear-regex.js";
import { pathCandidates } from "./path-candidates.js";
import { compileGlob, isReachable, parseScope, toolInScope, type RuleScope } from "./scope.js";
import { StreamBuffer } from "./stream-buffer.js";

export type TtsrStreamKind = "text" | "thinking" | "toolcall";
export type TtsrInterruptMode = NonNullable<TtsrRule["interruptMode"]>;

export interface TtsrMatcherOptions {
  /** `ttsr.interruptMode` for rules without their own; default `always`. */
  interruptMode?: TtsrInterruptMode;
  /** `ttsr.repeatMode`: `once` (default) = a rule fires at most once per session. */
  repeatMode?: "once" | "after-gap";
  /** `ttsr.repeatGap`: assistant messages between two firings in `after-gap` mode (default 10). */
  repeatGap?: number;
  /** Resolves relative tool paths for glob matching. */
  cwd?: string;
  /** Characters of each stream always kept for matching (default 4096; up to twice that is held). */
  windowChars?: number;
}

/** What is known about the tool call a `toolcall` delta belongs to. */
export interface TtsrToolContext {
  /** Tool call id (or content index): keeps one buffer per call. */
  id?: string;
  name?: string;
  /** The arguments parsed so far, for path globs. */
  args?: Record<string, unknown>;
}

interface Condition {
  regex: LinearRegex;
  /** Longest text a match can read; undefined = rescan the whole window on every delta. */
  maxLength: number | undefined;
}

interface Entry {
  rule: TtsrRule;
  conditions: Condition[];
  scope: RuleScope;
  globs: Array<(path: string) => boolean> | undefined;
}

function compileEntry(rule: TtsrRule): Entry | undefined {
  const regexes = (rule.condition ?? []).map(compileCondition).filter(isCompiled);
  const scope = parseScope(rule.scope);
  if (regexes.length === 0 || !isReachable(scope)) return undefined;
  const globs = rule.globs?.filter((g) => g.trim() !== "").map(compileGlob);
  const conditions = regexes.map((regex) => ({ regex, maxLength: maxMatchLength(regex) }));
  return { rule, conditions, scope, globs: globs && globs.length > 0 ? globs : undefined };
}

function interrupts(mode: TtsrInterruptMode, kind: TtsrStreamKind): boolean {
  if (mode === "always") return true;
  if (mode === "prose-only") return kind !== "toolcall";
  if (mode === "tool-only") return kind === "toolcall";
  return false;
}

export class TtsrMatcher {
  private readonly entries: Entry[];
  private readonly window: number;
  private readonly longestBounded: number;
  private readonly streams = new Map<string, StreamBuffer>();
  /** Rule name → message index of its last firing (kept for the whole session). */
  private readonly firedAt = new Map<string, number>();
  private readonly firedThisMessage = new Set<string>();
  private deferred: TtsrRule[] = [];
  private message = 0;

  constructor(rules: TtsrRule[], private readonly opts: TtsrMatcherOptions = {}) {
    const seen = new Set<string>();
    this.entries = [];
    for (const rule of rules) {
      const entry = seen.has(rule.name) ? undefined : compileEntry(rule);
      if (!entry) continue;
      seen.add(rule.name);
      this.entries.push(entry);
    }
    this.window = Math.max(1, opts.windowChars ?? 4096);
    const bounds = this.entries.flatMap((e) => e.conditions.map((c) => c.maxLength ?? 0));
    this.longestBounded = Math.max(0, ...bounds);
  }

  get hasRules(): boolean {
    return this.entries.length > 0;
  }

  /**
   * Appends a streamed delta and returns the rules to inject now when a match interrupts the
   * stream (any earlier non-interrupting matches of this message included), else undefined.
   * Non-interrupting matches wait in `takeDeferred()`.
   */
  feed(kind: TtsrStreamKind, delta: string, tool?: TtsrToolContext): TtsrRule[] | undefined {
    if (delta === "" || !this.listensTo(kind)) return undefined;
    const stream = this.append(kind === "toolcall" ? `toolcall:${tool?.id ?? ""}` : kind, delta);
    const paths = kind === "toolcall" ? pathCandidates(tool?.args, this.opts.cwd) : [];
    const name = tool?.name?.toLowerCase();
    const matched: Entry[] = [];
    for (const e of this.entries) {
      const ruleName = e.rule.name;
      if (!this.canFire(ruleName) || !this.inScope(e, kind, name, paths)) {
        stream.scanned.delete(ruleName);
        continue;
      }
      if (this.test(e, stream, delta.length)) matched.push(e);
      stream.scanned.add(ruleName);
    }
    if (matched.length === 0) return undefined;
    const now: TtsrRule[] = [];
    for (const e of matched) {
      this.firedAt.set(e.rule.name, this.message);
      this.firedThisMessage.add(e.rule.name);
      if (interrupts(e.rule.interruptMode ?? this.opts.interruptMode ?? "always", kind)) now.push(e.rule);
      else this.deferred.push(e.rule);
    }
    if (now.length === 0) return undefined;
    const out = [...this.deferred, ...now];
    this.deferred = [];
    return out;
  }

  /** Rules matched without interrupting: inject them once the assistant message completes. */
  takeDeferred(): TtsrRule[] {
    const out = this.deferred;
    this.deferred = [];
    return out;
  }

  /** A new assistant message starts: stream buffers are emptied and the message counter moves. */
  resetStream(): void {
    this.streams.clear();
    this.firedThisMessage.clear();
    this.message += 1;
  }

  /**
   * A new prompt: buffers and queued rules are dropped. Which rules already fired is kept: with
   * `repeatMode: once` a rule fires at most once per session.
   */
  resetForPrompt(): void {
    this.streams.clear();
    this.firedThisMessage.clear();
    this.deferred = [];
  }

  /** Names of the rules that fired so far (what a session persists in `ttsr_injection` entries). */
  injectedRuleNames(): string[] {
    return [...this.firedAt.keys()];
  }

  /** Replaces the fired set, e.g. from a loaded session's `ttsr_injection` entries ([] = fresh). */
  restoreInjected(names: string[]): void {
    this.firedAt.clear();
    for (const name of names) this.firedAt.set(name, this.message);
  }

  private listensTo(kind: TtsrStreamKind): boolean {
    if (kind === "text") return this.entries.some((e) => e.scope.text);
    if (kind === "thinking") return this.entries.some((e) => e.scope.thinking);
    return this.entries.some((e) => e.scope.anyTool || e.scope.tools.length > 0);
  }

  private append(key: string, delta: string): StreamBuffer {
    let stream = this.streams.get(key);
    if (!stream) {
      stream = new StreamBuffer(this.window, this.longestBounded);
      this.streams.set(key, stream);
    }
    stream.append(delta);
    return stream;
  }

  /**
   * Tests a rule against a stream. A bounded condition already tested on the previous delta can
   * only newly match near the end, so it scans just `deltaLength + maxLength` characters.
   */
  private test(e: Entry, stream: StreamBuffer, deltaLength: number): boolean {
    const resumed = stream.scanned.has(e.rule.name);
    return e.conditions.some(({ regex, maxLength }) =>
      regex.test(resumed && maxLength !== undefined ? stream.last(deltaLength + maxLength) : stream.all()),
    );
  }

  private canFire(name: string): boolean {
    if (this.firedThisMessage.has(name)) return false;
    const last = this.firedAt.get(name);
    if (last === undefined) return true;
    if (this.opts.repeatMode !== "after-gap") return false;
    return this.message - last >= (this.opts.repeatGap ?? 10);
  }

  private inScope(e: Entry, kind: TtsrStreamKind, name: string | undefined, paths: string[]): boolean {
    if (kind === "text" && !e.scope.text) return false;
    if (kind === "thinking" && !e.scope.thinking) return false;
    if (kind === "toolcall" && !toolInScope(e.scope, name, paths)) return false;
    return !e.globs || e.globs.some((g) => paths.some(g));
  }
}
