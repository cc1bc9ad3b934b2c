// Host tool definitions: the published shape and the one check that
// `set_host_tools` applies to each entry. The command schema types `tools` as an array of unknown
// values so that a bad entry is reported with the spec's wording, here, in index order.
import Type, { type Static } from "typebox";
import { PithError } from "../shared/errors.js";
import { RecordSchema } from "../shared/schema/index.js";

/** What a host sends per tool; `normalizeHostToolDefinitions` is its check. */
export const RpcHostToolDefinitionSchema = Type.Object({
  name: Type.String(),
  label: Type.Optional(Type.String()),
  description: Type.String(),
  parameters: RecordSchema,
  hidden: Type.Optional(Type.Boolean()),
  /** The tool only reads (changes no file, runs no command): it runs in permission mode "read-only" and unasked in "ask-writes". */
  readOnly: Type.Optional(Type.Boolean()),
});
export type RpcHostToolDefinition = Static<typeof RpcHostToolDefinitionSchema>;

/** A checked definition: trimmed name and description, label defaulted to the name, hidden and readOnly booleans. */
export type HostToolDefinition = Required<RpcHostToolDefinition>;

/** Host tool names pith activates (upper case too). */
export const HOST_TOOL_NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;

const invalid = (message: string) => new PithError("invalid_request", message);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function trimmed(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

function normalizeOne(def: unknown, index: number): HostToolDefinition {
  const d = isPlainObject(def) ? def : {};
  const name = trimmed(d.name);
  if (!name) throw invalid(`Host tool at index ${index} must provide a non-empty name`);
  const description = trimmed(d.description);
  if (!description) throw invalid(`Host tool "${name}" must provide a non-empty description`);
  if (!isPlainObject(d.parameters)) throw invalid(`Host tool "${name}" must provide a JSON Schema object`);
  if (!HOST_TOOL_NAME_RE.test(name)) {
    throw invalid(`Host tool "${name}" has an invalid name: use letters, digits, _ or - (at most 64)`);
  }
  return { name, label: trimmed(d.label) || name, description, parameters: d.parameters, hidden: d.hidden === true, readOnly: d.readOnly === true };
}

/**
 * Checks `set_host_tools` `tools` in order; throws `invalid_request` with the protocol's message for
 * the first bad entry, or when two entries share a name (case-sensitive).
 */
export function normalizeHostToolDefinitions(defs: readonly unknown[]): HostToolDefinition[] {
  const normalized = defs.map(normalizeOne);
  const names = normalized.map((d) => d.name);
  if (new Set(names).size !== names.length) throw invalid("RPC host tool names must be unique");
  return normalized;
}
