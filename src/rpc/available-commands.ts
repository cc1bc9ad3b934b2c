// get_available_commands and available_commands_update (oh-my-pi's shapes): the slash commands a
// prompt may start with. The update is written once the extensions are attached if they registered
// any command, and again whenever the list changes (an extension registering a command later).
import type { ExtensionCommandInfo } from "../session/index.js";

export interface AvailableSlashCommand {
  name: string;
  description?: string;
  input?: { hint?: string };
  source: "builtin" | "skill" | "extension" | "custom" | "mcp_prompt" | "file";
}

export function availableCommands(infos: readonly ExtensionCommandInfo[]): AvailableSlashCommand[] {
  return infos.map((c) => ({
    name: c.name,
    ...(c.description !== undefined ? { description: c.description } : {}),
    input: { hint: "arguments" },
    // oh-my-pi names a prompt template from a file "file".
    source: c.source === "prompt" ? "file" : c.source,
  }));
}

/** Remembers the last list announced and writes an update only when it changed. */
export class CommandAnnouncer {
  /** The empty list is known without saying: a process without commands writes no update. */
  private last = "[]";

  constructor(
    private readonly list: () => readonly ExtensionCommandInfo[],
    private readonly write: (frame: { type: "available_commands_update"; commands: AvailableSlashCommand[] }) => void,
  ) {}

  /** Writes the list if it differs from the last one written. */
  check(): void {
    const commands = availableCommands(this.list());
    const key = JSON.stringify(commands);
    if (key === this.last) return;
    this.last = key;
    this.write({ type: "available_commands_update", commands });
  }
}
