// Boundary validation: one parsed inbound value → a tagged, typed result.
import type { TSchema } from "typebox";
import { compiled } from "../shared/schema/compiled.js";
import { COMMAND_SCHEMAS, isCommandType, type RpcCommand, type RpcId } from "./commands.js";
import {
  ExtensionUiResponseSchema,
  HostToolResultSchema,
  HostToolUpdateSchema,
  type ExtensionUiResponse,
  type HostToolResult,
  type HostToolUpdate,
} from "./inbound.js";
import { checkDepth } from "../shared/json-depth.js";
import { describeMismatch } from "./mismatch.js";

export type InboundResult =
  /** An answer to a dialog: resolve it if the id is pending, never respond. */
  | { kind: "ui_response"; frame: ExtensionUiResponse }
  | { kind: "host_tool_result"; frame: HostToolResult }
  | { kind: "host_tool_update"; frame: HostToolUpdate }
  /** A well-formed command. */
  | { kind: "command"; command: RpcCommand }
  /** Missing or unrecognised `type` (incl. host tool frames that fail their shape check). */
  | { kind: "unknown"; type?: unknown; id?: RpcId; detail?: string }
  /** A known command with a bad field: answer `error` with the command and id. */
  | { kind: "invalid"; command: string; id?: RpcId; error: string }
  /** An `extension_ui_response` that cannot match any dialog (bad shape): drop it, never respond. */
  | { kind: "ignored"; type: string; error: string };

function check(schema: TSchema, value: unknown): string | undefined {
  const validator = compiled(schema);
  if (validator.Check(value)) return undefined;
  return describeMismatch(schema, value) ?? validator.Errors(value)[0]?.message ?? "invalid frame";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `Unknown command: <type>` without ever calling a host value's own `toString`/`valueOf`:
 * strings and other primitives print as themselves (`Unknown command: undefined` when missing),
 * objects and arrays by their kind.
 */
export function unknownCommandError(type: unknown): string {
  const shown = typeof type === "object" && type !== null ? Object.prototype.toString.call(type) : String(type);
  return `Unknown command: ${shown}`;
}

/** A request id is readable when it is a string or a finite number. */
export function readableId(value: unknown): RpcId | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return undefined;
}

function unknownOf(value: Record<string, unknown>, detail?: string): InboundResult {
  const result: { kind: "unknown"; type?: unknown; id?: RpcId; detail?: string } = { kind: "unknown" };
  if (value.type !== undefined) result.type = value.type;
  const id = readableId(value.id);
  if (id !== undefined) result.id = id;
  if (detail !== undefined) result.detail = detail;
  return result;
}

function hostFrame(value: Record<string, unknown>): InboundResult | undefined {
  if (value.type === "host_tool_result") {
    const error = check(HostToolResultSchema, value);
    return error === undefined ? { kind: "host_tool_result", frame: value as HostToolResult } : unknownOf(value, error);
  }
  if (value.type === "host_tool_update") {
    const error = check(HostToolUpdateSchema, value);
    return error === undefined ? { kind: "host_tool_update", frame: value as HostToolUpdate } : unknownOf(value, error);
  }
  return undefined;
}

/** A frame nested too deeply for any later walk: refused before any schema looks inside it. */
function tooDeep(value: Record<string, unknown>, error: string): InboundResult {
  if (value.type === "extension_ui_response") return { kind: "ignored", type: "extension_ui_response", error };
  if (!isCommandType(value.type)) return unknownOf(value, error);
  return invalidOf(value.type, value, error);
}

function invalidOf(command: string, value: Record<string, unknown>, error: string): InboundResult {
  const invalid: { kind: "invalid"; command: string; id?: RpcId; error: string } = { kind: "invalid", command, error };
  const id = readableId(value.id);
  if (id !== undefined) invalid.id = id;
  return invalid;
}

/** Classifies one parsed inbound value. Never throws, whatever the value holds or how deep. */
export function validateInbound(value: unknown): InboundResult {
  if (!isRecord(value)) return { kind: "unknown" };
  const depthError = checkDepth(value);
  if (depthError !== undefined) return tooDeep(value, depthError);
  if (value.type === "extension_ui_response") {
    const error = check(ExtensionUiResponseSchema, value);
    if (error === undefined) return { kind: "ui_response", frame: value as ExtensionUiResponse };
    return { kind: "ignored", type: "extension_ui_response", error };
  }
  const host = hostFrame(value);
  if (host) return host;
  if (!isCommandType(value.type)) return unknownOf(value);
  const error = check(COMMAND_SCHEMAS[value.type], value);
  if (error === undefined) return { kind: "command", command: value as RpcCommand };
  return invalidOf(value.type, value, error);
}
