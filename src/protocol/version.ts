// Version strings: the package version (sent in the ready frame) and the protocol revision.

declare const __PITH_VERSION__: string | undefined;

/** The package version; esbuild defines __PITH_VERSION__, unbundled runs report a dev version. */
export const PITH_VERSION: string = typeof __PITH_VERSION__ === "string" ? __PITH_VERSION__ : "0.0.0-dev";

/** Bumped when the wire contract in schema/rpc.schema.json changes incompatibly. */
export const PROTOCOL_VERSION = 1;
