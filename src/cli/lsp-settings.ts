// The `lsp` key of settings.json: the switches of the lsp tool and of diagnostics after writes
// (the reference's names), and the servers (`lsp.servers.<name>`, the reference's shape, merged
// field by field over the built-in table).

import { Type } from "typebox";
import { bool, explained, positiveMs, section } from "./setting-schema.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");

/** Field → what it must be, for one server entry. Other fields (the reference has more) are ignored. */
const SERVER_FIELDS: Record<string, [check: (v: unknown) => boolean, expected: string]> = {
  command: [(v) => typeof v === "string" && v.length > 0, "a non-empty string"],
  args: [isStrings, "an array of strings"],
  fileTypes: [(v) => isStrings(v) && (v as string[]).length > 0, 'a non-empty array of strings (".ts", "Dockerfile")'],
  rootMarkers: [isStrings, "an array of strings"],
  initOptions: [isObj, "an object"],
  settings: [isObj, "an object"],
  language: [(v) => typeof v === "string", "a string"],
  disabled: [(v) => typeof v === "boolean", "true or false"],
};

function serverProblem(servers: unknown): string | undefined {
  if (!isObj(servers)) return "lsp.servers: expected an object mapping server names to servers";
  for (const [name, server] of Object.entries(servers)) {
    if (!isObj(server)) return `lsp.servers.${name}: expected an object ({"command", "args", "fileTypes", ...})`;
    for (const [field, value] of Object.entries(server)) {
      const rule = SERVER_FIELDS[field];
      if (rule && !rule[0](value)) return `lsp.servers.${name}.${field}: expected ${rule[1]}`;
    }
  }
  return undefined;
}

/** The schema of the `lsp` key (part of the settings schema). */
export const LSP_SCHEMA = {
  lsp: section({
    enabled: bool(),
    diagnosticsOnWrite: bool(),
    diagnosticsOnEdit: bool(),
    formatOnWrite: bool(),
    diagnosticsTimeoutMs: positiveMs(),
    servers: explained(Type.Unknown(), serverProblem),
  }),
};
