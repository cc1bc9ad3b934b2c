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
  const meta = await bundle(outdir, { cli: entryPoint });
  const entry = outputOf(meta, "cli");
  return { meta, eagerOutputs: staticClosure(meta, entry) };
}

/** What one entry of `startupBundles` parses at load (`eager`) and can ever load (`all`), as input paths. */
export interface EntryInputs {
  eager: string[];
  all: string[];
}

/**
 * Several entries bundled in one esbuild run (one build instead of one per entry: the startup
 * tests need three, and each is a whole CLI's worth of work). Shared chunks are followed per
 * entry, so each entry's `eager` and `all` hold only what that entry reaches.
 */
export async function startupBundles(outdir: string, entryPoints: Record<string, string>): Promise<Record<string, EntryInputs>> {
  const meta = await bundle(outdir, entryPoints);
  const inputsOf = (outputs: string[]) => [...new Set(outputs.flatMap((out) => Object.keys(meta.outputs[out].inputs)))];
  const result: Record<string, EntryInputs> = {};
  for (const name of Object.keys(entryPoints)) {
    const entry = outputOf(meta, name);
    result[name] = { eager: inputsOf(staticClosure(meta, entry)), all: inputsOf(closure(meta, entry, () => true)) };
  }
  return result;
}

async function bundle(outdir: string, entryPoints: Record<string, string>): Promise<Metafile> {
  const result = await build({
    entryPoints,
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
  return result.metafile;
}

function outputOf(meta: Metafile, name: string): string {
  return Object.keys(meta.outputs).find((o) => o.endsWith(`/${name}.js`)) as string;
}

function staticClosure(meta: Metafile, entry: string): string[] {
  return closure(meta, entry, (kind) => kind === "import-statement");
}

/** Output files reached from `entry` through the imports `follow` accepts. */
function closure(meta: Metafile, entry: string, follow: (kind: string) => boolean): string[] {
  const seen = new Set<string>([entry]);
  const stack = [entry];
  while (stack.length > 0) {
    for (const imp of meta.outputs[stack.pop() as string].imports) {
      if (!follow(imp.kind) || imp.external || seen.has(imp.path)) continue;
      seen.add(imp.path);
      stack.push(imp.path);
    }
  }
  return [...seen];
}
