// The diagnostics one server published, per document, and waiting for fresh ones.
//
// Servers push diagnostics when they have checked a document, often in several rounds (syntax
// first, types later) and without saying which round is the last. A wait therefore takes the
// first publication after a given point, then keeps taking later ones until the server has been
// quiet for `settleMs`; the caller's signal bounds the whole wait.
import type { Diagnostic } from "vscode-languageserver-protocol";

interface Published {
  diagnostics: Diagnostic[];
  version: number | undefined;
  /** Position in the order of all publications this board received. */
  seq: number;
}

export interface WaitOptions {
  /** Only publications after this sequence number count (see `mark`). */
  after: number;
  /** When the server reports versions: only publications for this version or later count. */
  minVersion?: number;
  /** Quiet time after a publication before the result is taken. */
  settleMs: number;
  signal: AbortSignal;
}

export class DiagnosticsBoard {
  private readonly latest = new Map<string, Published>();
  private seq = 0;
  private readonly listeners = new Set<(uri: string | undefined) => void>();

  publish(uri: string, diagnostics: Diagnostic[], version: number | undefined): void {
    this.latest.set(uri, { diagnostics, version, seq: ++this.seq });
    for (const l of [...this.listeners]) l(uri);
  }

  /** The current sequence number: publications after it are newer than anything seen so far. */
  mark(): number {
    return this.seq;
  }

  /** The last diagnostics published for `uri`, if any. */
  get(uri: string): Diagnostic[] | undefined {
    return this.latest.get(uri)?.diagnostics;
  }

  /** Every document with diagnostics. */
  all(): Array<{ uri: string; diagnostics: Diagnostic[] }> {
    return [...this.latest].map(([uri, p]) => ({ uri, diagnostics: p.diagnostics }));
  }

  forget(): void {
    this.latest.clear();
  }

  /** Ends every wait now (the server is gone): each resolves with what it has. */
  interrupt(): void {
    for (const l of [...this.listeners]) l(undefined);
  }

  /**
   * The settled diagnostics of `uri` published after `o.after`, or undefined when none came
   * before the signal fired (then the latest fresh ones, if a round had started).
   */
  settled(uri: string, o: WaitOptions): Promise<Diagnostic[] | undefined> {
    const fresh = (): Published | undefined => {
      const p = this.latest.get(uri);
      if (!p || p.seq <= o.after) return undefined;
      if (o.minVersion !== undefined && p.version !== undefined && p.version < o.minVersion) return undefined;
      return p;
    };
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        o.signal.removeEventListener("abort", finish);
        resolve(fresh()?.diagnostics);
      };
      const arm = () => {
        if (!fresh()) return;
        clearTimeout(timer);
        timer = setTimeout(finish, o.settleMs);
      };
      const listener = (u: string | undefined) => {
        if (u === undefined) finish();
        else if (u === uri) arm();
      };
      if (o.signal.aborted) return finish();
      this.listeners.add(listener);
      o.signal.addEventListener("abort", finish, { once: true });
      arm();
    });
  }
}
