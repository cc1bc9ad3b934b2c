// Project trust (pith): `get_project_trust` shows what the session's folder holds and whether it
// is trusted, so a host can show a trust dialog; `trust_project` trusts it now (and with
// `persist`, for every later start). Spread into COMMAND_SCHEMAS and RESPONSE_DATA_SCHEMAS.
import Type from "typebox";
import { ProjectTrustReportSchema } from "../shared/schema/index.js";
import { command } from "./command-schema.js";

export const TRUST_COMMAND_SCHEMAS = {
  /** Answered with `{folder, trusted, source, found}`. */
  get_project_trust: command(
    "get_project_trust",
    {},
    "pith: whether the session's folder is trusted, who decided, and what its project layer holds (settings keys, extensions, agents, rules, prompts, MCP servers).",
  ),
  /** Answered with `{folder, trusted, source, found}` once the project layer is loaded; refused while a run is busy. */
  trust_project: command(
    "trust_project",
    { persist: Type.Optional(Type.Boolean({ description: "also save the decision in PITH_HOME/trust.json, so later starts in this folder are trusted" })) },
    "pith: trust the session's folder now: its settings, extensions, agents, rules and MCP servers load into the running session.",
  ),
} as const;

export const TRUST_RESPONSE_SCHEMAS = {
  get_project_trust: ProjectTrustReportSchema,
  trust_project: ProjectTrustReportSchema,
} as const;
