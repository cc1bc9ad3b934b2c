// What V8 parses at startup: the esbuild metafile of the CLI bundle and the static import
// closure of its entry (lazy `import()` chunks excluded). Shared by the startup-bundle test
// and bench/startup-trace.ts. Another entry (a layer's index.ts) shows what importing that
// layer costs before its lazy parts are used.
import { build, type Metafile } from "esbuild";

export interface StartupBundle {
  meta: Metafile;
  /** Output files reached from dist/cli.js through static imports only. */
  eagerOutputs: string[];
}

/** Bundles `entry` (default the CLI) as the build does, code-split at every `import()`. */
export async function startupBundle(outdir: string, entryPoint = "src/cli/main.ts"): Promise<StartupBundle> {
  const result = await build({
    entryPoints: { cli: entryPoint },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    splitting: true,
    outdir,
    chunkNames: "chunks/[name]-[hash]",
    write: false,
    metafile: true,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "silent",
    // As scripts/build.mjs: native addons load from node_modules at run time.
    external: ["@ast-grep/napi", "@ast-grep/lang-bash", "sharp"],
    define: { __PITH_VERSION__: '"0.0.0-startup"' },
  });
  const meta = result.metafile;
  const entry = Object.keys(meta.outputs).find((o) => o.endsWith("/cli.js")) as string;
  return { meta, eagerOutputs: staticClosure(meta, entry) };
}

function staticClosure(meta: Metafile, entry: string): string[] {
  const seen = new Set<string>([entry]);
  const stack = [entry];
  while (stack.length > 0) {
    for (const imp of meta.outputs[stack.pop() as string].imports) {
      if (imp.kind !== "import-statement" || imp.external || seen.has(imp.path)) continue;
      seen.add(imp.path);
      stack.push(imp.path);
    }
  }
  return [...seen];
}
