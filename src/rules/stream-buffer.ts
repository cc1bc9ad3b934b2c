// The text of one streamed part (assistant text, thinking, or one tool call's arguments), kept
// cheaply: a sliding window for conditions that must rescan, and a short tail for bounded ones.

export class StreamBuffer {
  private text = "";
  private pending: string[] = [];
  private pendingChars = 0;
  private tail = "";
  private readonly tailKeep: number;
  /** Rules tested against this stream on its previous delta: they may scan only the new tail. */
  readonly scanned = new Set<string>();

  /**
   * @param window characters always available to `all()` (up to twice as many are held)
   * @param longestBounded the longest bounded condition; `last(delta + it)` stays available
   */
  constructor(
    private readonly window: number,
    longestBounded: number,
  ) {
    this.tailKeep = longestBounded + Math.max(64, longestBounded);
  }

  append(delta: string): void {
    this.pending.push(delta);
    this.pendingChars += delta.length;
    if (this.pendingChars > this.window) this.flush();
    const keep = delta.length + this.tailKeep;
    this.tail += delta;
    if (this.tail.length > 2 * keep) this.tail = this.tail.slice(-keep);
  }

  /** The last `n` characters, for `n` up to the last delta's length plus the longest bounded condition. */
  last(n: number): string {
    return this.tail.length > n ? this.tail.slice(-n) : this.tail;
  }

  /** The recent window (at least `window` characters, or the whole stream when shorter). */
  all(): string {
    this.flush();
    return this.text;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.text += this.pending.join("");
    this.pending = [];
    this.pendingChars = 0;
    // Trim only once the window has doubled, so trimming costs O(1) amortised per character.
    if (this.text.length > 2 * this.window) this.text = this.text.slice(-this.window);
  }
}
