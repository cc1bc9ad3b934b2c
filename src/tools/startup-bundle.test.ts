// design.md §5 (spawn → first get_state): code the first get_state does not need stays out of
// the bundle V8 parses at startup. esbuild puts modules reached only through `import()` into
// lazy chunks; this checks that the static closure of dist/cli.js's entry does not reach them.
import { describe, expect, it } from "vitest";
import { startupBundle } from "../../test/support/startup-bundle.js";

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
  // issue 24: the reference's tools load their libraries on first use
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
const NEVER_EAGER = ["node_modules/@modelcontextprotocol/sdk/", "src/mcp/open-client.ts", "src/mcp/stdio-transport.ts"];

/** `pith serve` and the WebSocket library: loaded by `pith serve` (and the client's `connect`) only. */
const SERVE = ["node_modules/ws/", "src/serve/", "src/cli/modes/serve.ts"];

/** The language-server packages: loaded with the first server start, never with the layer. */
const LSP_PACKAGES = ["node_modules/vscode-jsonrpc/", "node_modules/vscode-languageserver-protocol/", "src/lsp/server-process.ts"];

const bundles = new Map<string, Promise<{ eager: string[]; all: string[] }>>();

/** Inputs of the eager closure of a bundle, and of the whole bundle (each bundle built once per run). */
function split(outdir: string, entry?: string): Promise<{ eager: string[]; all: string[] }> {
  const key = `${outdir}\0${entry ?? ""}`;
  let done = bundles.get(key);
  if (!done) {
    done = startupBundle(outdir, entry).then(({ meta, eagerOutputs }) => ({ eager: eagerOutputs.flatMap((out) => Object.keys(meta.outputs[out].inputs)), all: Object.keys(meta.inputs) }));
    bundles.set(key, done);
  }
  return done;
}

describe("startup bundle", () => {
  it("keeps compaction, HTML export, TTSR matching, search and diff out of the eager closure", async () => {
    const { eager, all } = await split("/tmp/pith-startup-bundle-test");
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
    const { eager, all } = await split("/tmp/pith-startup-bundle-test");
    // The composition root reads the MCP settings at startup and the session knows its MCP part ...
    expect(eager).toEqual(expect.arrayContaining(["src/cli/mcp.ts", "src/session/session-mcp.ts"]));
    // ... while the manager and the SDK sit in lazy chunks that only configured servers (or set_mcp_servers) reach.
    for (const lazy of ["src/mcp/manager.ts", "node_modules/@modelcontextprotocol/sdk/"]) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
  });

  it("importing the MCP layer does not load the MCP SDK: only the first connection does", async () => {
    const { eager, all } = await split("/tmp/pith-startup-bundle-mcp", "src/mcp/index.ts");
    expect(eager).toContain("src/mcp/manager.ts");
    for (const lazy of NEVER_EAGER) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is loaded with src/mcp/index.ts`).toEqual([]);
    }
  });

  it("loads nothing of the language-server layer while lsp.enabled is off, and its LSP packages only with the first server", async () => {
    const { eager, all } = await split("/tmp/pith-startup-bundle-test");
    for (const lazy of ["src/lsp/manager.ts", "src/lsp/tool.ts", ...LSP_PACKAGES]) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
    const layer = await split("/tmp/pith-startup-bundle-lsp", "src/lsp/index.ts");
    expect(layer.eager).toContain("src/lsp/manager.ts");
    for (const lazy of LSP_PACKAGES) expect(layer.eager.filter((i) => i.includes(lazy)), `${lazy} is loaded with src/lsp/index.ts`).toEqual([]);
  });
});
