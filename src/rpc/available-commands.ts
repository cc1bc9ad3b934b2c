// get_available_commands and available_commands_update (oh-my-pi's shapes): the slash commands a
// prompt may start with. The update is written once the extensions are attached if they registered
// any command, and again whenever the list changes (an extension registering a command later).
import { availableCommands, type AvailableSlashCommand, type ExtensionCommandInfo } from "../session/index.js";

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
