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

describe("startup bundle", () => {
  it("keeps compaction, HTML export, TTSR matching, search and diff out of the eager closure", async () => {
    const { meta, eagerOutputs } = await startupBundle("/tmp/pith-startup-bundle-test");
    const eager = eagerOutputs.flatMap((out) => Object.keys(meta.outputs[out].inputs));
    const all = Object.keys(meta.inputs);
    for (const lazy of LAZY) {
      expect(all.some((i) => i.includes(lazy)), `${lazy} is not bundled at all`).toBe(true);
      expect(eager.filter((i) => i.includes(lazy)), `${lazy} is parsed at startup`).toEqual([]);
    }
  });
});
