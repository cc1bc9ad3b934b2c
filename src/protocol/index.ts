// The wire contract: schemas, static types, the inbound validator and versions.
export * from "../shared/schema/index.js";
export * from "./commands.js";
export * from "./session-commands.js";
export * from "./host-tool-definitions.js";
export * from "./inbound.js";
export * from "./responses.js";
export * from "./outbound.js";
export * from "./liveness.js";
export * from "./validate.js";
export { MAX_JSON_DEPTH } from "../shared/json-depth.js";
export * from "./version.js";
export { describeMismatch, describeSchema } from "./mismatch.js";
