// The port through which something outside the tools learns of a file a built-in tool changed
// and adds a note to the tool's result (a language server's diagnostics for the new content),
// and of a file `read` read (so that its language server is warm by the time the model writes).

export interface WrittenFile {
  /** Absolute path as written (after the sandbox's guard). */
  path: string;
  /** The text now in the file. */
  content: string;
  /** Which tool wrote it. */
  kind: "write" | "edit";
}

export interface FileObserver {
  /**
   * Runs after the file is written and before the tool answers; resolves to text appended to the
   * result, or undefined. Bounds its own waiting and never rejects.
   */
  afterWrite(file: WrittenFile, signal: AbortSignal): Promise<string | undefined>;
  /** A text file was read (absolute path, its text): a hint, acted on in the background; never throws. */
  afterRead?(path: string, text: string): void;
}

/** `text`, then a blank line and `note` when there is one. */
export function withNote(text: string, note: string | undefined): string {
  return note ? `${text}\n\n${note}` : text;
}
