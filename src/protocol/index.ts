// The wire contract: schemas, static types, the inbound validator and versions.
export * from "./content.js";
export * from "./commands.js";
export * from "./inbound.js";
export * from "./events.js";
export * from "./responses.js";
export * from "./outbound.js";
export * from "./validate.js";
export * from "./version.js";
export { describeMismatch, describeSchema } from "./mismatch.js";
