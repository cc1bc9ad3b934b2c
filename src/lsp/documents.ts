// The documents pith has open in one server process, with the text the server was sent.
//
// A document stays open once pith touched it (its diagnostics stay current), at most
// MAX_OPEN per server: the least recently used is closed beyond that, and the server reads it
// from disk again. Before a request, open documents are compared with the files (which `bash` or
// the host may have changed) and the server is sent what changed.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { languageIdOf } from "./defaults.js";

/** What the documents need of the server process. */
export interface DocumentPeer {
  notify(method: string, params: unknown): void;
}

interface OpenDocument {
  uri: string;
  languageId: string;
  version: number;
  text: string;
}

const MAX_OPEN = 32;

export function uriOf(absPath: string): string {
  return pathToFileURL(absPath).href;
}

export class Documents {
  /** By absolute path, least recently used first. */
  private readonly open = new Map<string, OpenDocument>();
  private nextVersion = 1;

  constructor(private readonly peer: DocumentPeer) {}

  /** The text the server has for the file, when it is open. */
  textOf(absPath: string): string | undefined {
    return this.open.get(absPath)?.text;
  }

  paths(): string[] {
    return [...this.open.keys()];
  }

  /** Makes the server see `text` for the file: opens it, or sends the change. Returns the version sent. */
  sync(absPath: string, text: string): number {
    const doc = this.open.get(absPath);
    if (!doc) return this.openDoc(absPath, text);
    this.touch(absPath, doc);
    if (doc.text === text) return doc.version;
    doc.version = this.nextVersion++;
    doc.text = text;
    this.peer.notify("textDocument/didChange", { textDocument: { uri: doc.uri, version: doc.version }, contentChanges: [{ text }] });
    return doc.version;
  }

  /**
   * Has the server check the file afresh, so that it publishes diagnostics even when they did
   * not change: closes it (when open), waits for `barrier` (the server has handled the close, and
   * published whatever the close clears), then opens it with `text` and says it was saved.
   * `opened()` runs just before the open is sent. Returns the version sent.
   */
  async reopen(absPath: string, text: string, barrier: () => Promise<void>, opened: () => void): Promise<number> {
    if (this.open.has(absPath)) {
      this.close(absPath);
      await barrier();
    }
    opened();
    const version = this.openDoc(absPath, text);
    this.peer.notify("textDocument/didSave", { textDocument: { uri: uriOf(absPath) } });
    return version;
  }

  /** Sends what changed in the open files since (`read` gives a file's text, undefined when it is gone). */
  async refresh(read: (absPath: string) => Promise<string | undefined>): Promise<void> {
    for (const absPath of this.paths()) {
      const text = await read(absPath);
      if (text === undefined) this.close(absPath);
      else this.sync(absPath, text);
    }
  }

  /** Closes the file (it was deleted, or the server should read it from disk again). */
  close(absPath: string): void {
    const doc = this.open.get(absPath);
    if (!doc) return;
    this.open.delete(absPath);
    this.peer.notify("textDocument/didClose", { textDocument: { uri: doc.uri } });
  }

  private openDoc(absPath: string, text: string): number {
    const doc: OpenDocument = { uri: uriOf(absPath), languageId: languageIdOf(path.extname(absPath)), version: this.nextVersion++, text };
    this.open.set(absPath, doc);
    this.peer.notify("textDocument/didOpen", { textDocument: { uri: doc.uri, languageId: doc.languageId, version: doc.version, text } });
    for (const oldest of this.open.keys()) {
      if (this.open.size <= MAX_OPEN) break;
      this.close(oldest);
    }
    return doc.version;
  }

  private touch(absPath: string, doc: OpenDocument): void {
    this.open.delete(absPath);
    this.open.set(absPath, doc);
  }
}
