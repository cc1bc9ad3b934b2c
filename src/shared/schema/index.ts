// The shared vocabulary as TypeBox schemas: the one source of the wire types. `../types.ts`
// derives the static types from these; `src/protocol/` builds the frame unions on top.
export * from "./primitives.js";
export * from "./content.js";
export * from "./model.js";
export * from "./messages.js";
export * from "./results.js";
export * from "./events.js";
export * from "./subagents.js";
export * from "./permissions.js";
export * from "./mcp.js";
export * from "./lsp.js";
export * from "./trust.js";
