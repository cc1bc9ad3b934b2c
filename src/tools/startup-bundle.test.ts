// design.md §5 (spawn → first get_state): code the first get_state does not need stays out of
// the bundle V8 parses at startup. esbuild puts modules reached only through `import()` into
// lazy chunks; this checks that the static closure of dist/cli.js's entry does not reach them.
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

/** Modules that must load on first use only (path fragments of esbuild's input names). */
const LAZY = [
  "src/session/compaction/prepare.ts",
  "src/session/compaction/compact.ts",
  "src/session/compaction/summarize.ts",
  "src/session/export-html/",
  "src/session/ttsr/matcher.ts",
  "src/session/ttsr/rule-file.ts",
  "src/tools/search/grep-search.ts",
  "src/tools/search/walker.ts",
  "src/tools/search/list-files.ts",
  "src/tools/edit/diff.ts",
  "node_modules/diff/",
  "node_modules/picomatch/",
  "node_modules/ignore/",
];

function staticInputs(meta: Metafile, entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const stack = [entry];
  while (stack.length > 0) {
    for (const imp of meta.outputs[stack.pop() as string].imports) {
      if (imp.kind !== "import-statement" || imp.external || seen.has(imp.path)) continue;
      seen.add(imp.path);
      stack.push(imp.path);
    }
  }
  const inputs = new Set<string>();
  for (const out of seen) for (const input of Object.keys(meta.outputs[out].inputs)) inputs.add(input);
  return inputs;
}

describe("startup bundle", () => {
  it("keeps compaction, HTML export, TTSR matching, search and diff out of the eager closure", async () => {
    const result = await build({
      entryPoints: { cli: "src/cli/main.ts" },
      bundle: true,
      platform: "node",
      target: "node20",
      format: "esm",
      splitting: true,
      outdir: "/tmp/pith-startup-bundle-test",
      chunkNames: "chunks/[name]-[hash]",
      write: false,
      metafile: true,
      logLevel: "silent",
      define: { __PITH_VERSION__: '"0.0.0-test"' },
    });
    const meta = result.metafile;
    const entry = Object.keys(meta.outputs).find((o) => o.endsWith("/cli.js")) as string;
    const eager = [...staticInputs(meta, entry)];
    const all = Object.keys(meta.inputs);
    for (const lazy of LAZY) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
  });
});
