// (spawn → first get_state): code the first get_state does not need stays out of
// the bundle V8 parses at startup. esbuild puts modules reached only through `import()` into
// lazy chunks; this checks that the static closure of dist/cli.js's entry does not reach them.
import { beforeAll, describe, expect, it } from "vitest";
import { startupBundles, type EntryInputs } from "../../test/support/startup-bundle.js";

/** Modules that must load on first use only (path fragments of esbuild's input names). */
const LAZY = [
  "src/session/compaction/prepare.ts",
  "src/session/compaction/compact.ts",
  "src/session/compaction/summarize.ts",
  "src/session/export-html/",
  "src/rules/matcher.ts",
  "src/rules/rule-file.ts",
  "src/tools/search/grep-search.ts",
  "src/tools/search/walker.ts",
  "src/tools/search/list-files.ts",
  "src/tools/edit/diff.ts",
  "node_modules/diff/",
  "node_modules/ignore/",
  "node_modules/re2js/",
  "src/shared/linear-regex.ts",
  "src/checkpoints/",
  // The reference's tools load their libraries on first use
  "src/tools/hashline/preview.ts",
  "node_modules/xxhash-wasm/",
  "src/tools/calc/evaluate.ts",
  "node_modules/mathjs/",
  "node_modules/beautiful-mermaid/",
  "src/tools/ast-grep/engine.ts",
  "src/tools/python/kernel.ts",
  "src/tools/python/bridge.ts",
  "src/tools/python/probe.ts",
];

/** Modules that must never be parsed at startup, whether or not the CLI reaches them yet. */
/** The MCP SDK and the modules that open connections: loaded with the first server only. */
const MCP_LAZY = ["node_modules/@modelcontextprotocol/sdk/", "src/mcp/open-client.ts", "src/mcp/stdio-transport.ts"];
const NEVER_EAGER = [...MCP_LAZY, "node_modules/yaml/"];

/** `pith serve` and the WebSocket library: loaded by `pith serve` (and the client's `connect`) only. */
const SERVE = ["node_modules/ws/", "src/serve/", "src/cli/modes/serve.ts"];

/** The language-server packages: loaded with the first server start, never with the layer. */
const LSP_PACKAGES = ["node_modules/vscode-jsonrpc/", "node_modules/vscode-languageserver-protocol/", "src/lsp/server-process.ts"];

/** The CLI and the two layers' entries, bundled once in one esbuild run for every test here. */
let built: Promise<Record<"cli" | "mcp" | "lsp", EntryInputs>> | undefined;
function split(entry: "cli" | "mcp" | "lsp"): Promise<EntryInputs> {
  built ??= startupBundles("/tmp/pith-startup-bundle-test", { cli: "src/cli/main.ts", mcp: "src/mcp/index.ts", lsp: "src/lsp/index.ts" }) as Promise<Record<"cli" | "mcp" | "lsp", EntryInputs>>;
  return built.then((all) => all[entry]);
}

describe("startup bundle", () => {
  // The bundle is a fixture, built like `npm run build` builds dist (which has no time limit):
  // on a busy machine it can take longer than one test's limit, so it is built before them.
  beforeAll(() => split("cli"), 120_000);

  it("keeps compaction, HTML export, TTSR matching, search and diff out of the eager closure", async () => {
    const { eager, all } = await split("cli");
    for (const lazy of LAZY) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
    for (const lazy of NEVER_EAGER) expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    for (const lazy of SERVE) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
  });

  it("wires MCP into the CLI without loading it: with no server configured neither the MCP layer nor the SDK is loaded", async () => {
    const { eager, all } = await split("cli");
    // The composition root reads the MCP settings at startup and the session knows its MCP part ...
    expect(eager).toEqual(expect.arrayContaining(["src/cli/mcp.ts", "src/session/session-mcp.ts"]));
    // ... while the manager and the SDK sit in lazy chunks that only configured servers (or set_mcp_servers) reach.
    for (const lazy of ["src/mcp/manager.ts", "node_modules/@modelcontextprotocol/sdk/"]) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
  });

  it("importing the MCP layer does not load the MCP SDK: only the first connection does", async () => {
    const { eager, all } = await split("mcp");
    expect(eager).toContain("src/mcp/manager.ts");
    for (const lazy of MCP_LAZY) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is loaded with src/mcp/index.ts`).toEqual([]);
    }
  });

  it("loads nothing of the session database without --session-store: its store and the pg driver only when one is configured", async () => {
    const { eager, all } = await split("cli");
    expect(all.some((i) => i.includes("src/store/postgres/db-storage.ts")), "the database store is not bundled at all").toBe(true);
    for (const lazy of ["src/store/postgres/", "node_modules/pg/", "node_modules/pg-", "node_modules/pgpass/"]) {
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
  });

  it("loads nothing of the language-server layer while lsp.enabled is off, and its LSP packages only with the first server", async () => {
    const { eager, all } = await split("cli");
    for (const lazy of ["src/lsp/manager.ts", "src/lsp/tool.ts", ...LSP_PACKAGES]) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
    const layer = await split("lsp");
    expect(layer.eager).toContain("src/lsp/manager.ts");
    for (const lazy of LSP_PACKAGES) expect(layer.eager.filter((i) => i.includes(lazy)), `${lazy} is loaded with src/lsp/index.ts`).toEqual([]);
  });
});
