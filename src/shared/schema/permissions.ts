// Permissions and the sandbox on the wire (README "Permissions and sandbox"): the rules a host
// sets with `set_permissions`, what `get_state` shows, and the `permission` field of an approval
// dialog (an `extension_ui_request` of method `select`).
import Type, { type Static } from "typebox";
import { RecordSchema, literals } from "./primitives.js";

const Rules = Type.Array(Type.String(), { description: 'Rules in Claude Code\'s syntax: "Tool" or "Tool(specifier)".' });

export const PermissionModeSchema = literals(["allow", "ask", "ask-writes", "read-only"]);

/** `set_permissions.rules`: each key given replaces the session's value; absent keys stay. */
export const PermissionRulesInputSchema = Type.Object(
  {
    mode: Type.Optional(PermissionModeSchema),
    allow: Type.Optional(Rules),
    ask: Type.Optional(Rules),
    deny: Type.Optional(Rules),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 0, description: "How long a dialog waits for an answer; 0 = no limit." })),
    sessionAllow: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Replaces the project\'s "Allow always" grants where they are kept (PITH_HOME/grants.json); [] revokes them all.',
      }),
    ),
  },
  { description: "Permission mode and rule lists (deny > ask > allow; the mode decides what no rule matches)." },
);

/** `get_state.permissions` and the answer of `set_permissions`. */
export const PermissionStateSchema = Type.Object({
  mode: PermissionModeSchema,
  allow: Rules,
  ask: Rules,
  deny: Rules,
  /** The project's "Allow always" grants in force (kept with the user per project, never in a session file). */
  sessionAllow: Rules,
  /** Absent: dialogs wait until answered, cancelled or stdin closes. */
  timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Where the project's grants are kept (PITH_HOME/grants.json); absent when they live in memory only. */
  grantsFile: Type.Optional(Type.String()),
});

/** `get_state.sandbox`: `mode: "off"` when commands run unsandboxed. */
export const SandboxStateSchema = Type.Object({
  mode: literals(["off", "workspace-write", "read-only"]),
  network: Type.Boolean(),
  writableRoots: Type.Array(Type.String()),
});

/** The `permission` field of an approval dialog. */
export const PermissionPayloadSchema = Type.Object({
  toolCallId: Type.String(),
  toolName: Type.String(),
  arguments: RecordSchema,
  /** The allow rule(s) "Allow always" records, joined with ", "; absent when none can be. */
  rule: Type.Optional(Type.String()),
  /** Why pith asks. */
  reason: Type.String(),
});

export type PermissionRulesInput = Static<typeof PermissionRulesInputSchema>;
export type PermissionStateWire = Static<typeof PermissionStateSchema>;
export type SandboxStateWire = Static<typeof SandboxStateSchema>;
