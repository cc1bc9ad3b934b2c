// The slash commands a prompt may start with, in oh-my-pi's shape (`get_available_commands`,
// `available_commands_update`): every extension, prompt-template and skill command takes arguments.
import type { ExtensionCommandInfo } from "../extensions/index.js";

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
