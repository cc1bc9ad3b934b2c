// Slash commands: `/name args` in a prompt runs the extension command `name`.

export interface ParsedCommand {
  name: string;
  /** Everything after the first run of whitespace, untrimmed at the end (pi passes it as is). */
  args: string;
}

export interface ExtensionCommandInfo {
  name: string;
  description?: string;
  /** An extension's command, a package's prompt template, or a skill (`skill:<name>`). */
  source: "extension" | "prompt" | "skill";
  /** The extension module, template file or SKILL.md it comes from. */
  path: string;
}

/** `"/deploy prod now"` → `{name: "deploy", args: "prod now"}`; anything else → undefined. */
export function parseSlashCommand(text: string): ParsedCommand | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("/")) return undefined;
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!match) return undefined;
  return { name: match[1], args: match[2] ?? "" };
}
