// Project trust on the wire: `get_state.projectTrust`, and what `get_project_trust` and
// `trust_project` answer. A folder's project layer (its settings, extensions, agents, rules,
// prompts and MCP servers) loads only when the folder is trusted.
import Type, { type Static } from "typebox";
import { literals } from "./primitives.js";

/**
 * Who decided whether the session's folder is trusted. flag: --trust-project / --approve /
 * --no-approve; env: PITH_TRUST_PROJECT; saved: PITH_HOME/trust.json; trusted_folders: the global
 * list; default: defaultProjectTrust; extension: a project_trust handler; host: trust_project.
 */
export const ProjectTrustSourceSchema = literals(["flag", "env", "saved", "trusted_folders", "default", "extension", "host"]);

/** `get_state.projectTrust`. */
export const ProjectTrustStateSchema = Type.Object({
  trusted: Type.Boolean(),
  source: ProjectTrustSourceSchema,
});

/** One thing the folder holds that trust would load (or has loaded). */
export const ProjectLayerItemSchema = Type.Object({
  kind: literals(["settings", "extension", "agent", "rule", "prompt", "mcp_server"]),
  /** The file it comes from (absolute). */
  path: Type.String(),
  /** The settings key (dotted), agent, rule, prompt or MCP server name; absent for an extension. */
  name: Type.Optional(Type.String()),
});

/** `get_project_trust` and `trust_project` answer with this. */
export const ProjectTrustReportSchema = Type.Object({
  /** The session's folder, canonical (symlinks resolved). */
  folder: Type.String(),
  trusted: Type.Boolean(),
  source: ProjectTrustSourceSchema,
  found: Type.Array(ProjectLayerItemSchema),
});

export type ProjectTrustSource = Static<typeof ProjectTrustSourceSchema>;
export type ProjectTrustStateWire = Static<typeof ProjectTrustStateSchema>;
export type ProjectLayerItem = Static<typeof ProjectLayerItemSchema>;
export type ProjectTrustReport = Static<typeof ProjectTrustReportSchema>;
