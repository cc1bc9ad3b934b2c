/* global URL, process */
// Bundles the CLI and the host client. Provider SDKs stay external-free but are split
// out so that startup only pays for what the first command needs.
//
// Startup is paid on every spawn (design.md §5: spawn → first get_state <= 150 ms), and on
// Node 20 there is no compile cache for ES modules, so the bytes V8 must parse matter:
// - JSON files become `JSON.parse("<string>")`: V8 scans a string literal far faster than it
//   parses the same data as an object literal (the model catalogue is ~200 KB).
// - whitespace and syntax are minified; identifiers are kept, so stack traces still name
//   functions. Set PITH_BUILD_READABLE=1 for an unminified bundle when debugging.
import { build } from "esbuild";
import { readFileSync, chmodSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const readable = ["1", "true", "yes"].includes(String(process.env.PITH_BUILD_READABLE ?? "").toLowerCase());

/** `import x from "./a.json"` → `module.exports = JSON.parse("...")` (validated at build time). */
const jsonAsParse = {
  name: "json-as-parse",
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      JSON.parse(text);
      // CommonJS, so that both `import x from` and a dependency's `require("./x.json")` get the value.
      return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});`, loader: "js" };
    });
  },
};

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: false,
  legalComments: "none",
  minifyWhitespace: !readable,
  minifySyntax: !readable,
  plugins: [jsonAsParse],
  // Native addons (a `.node` binary, a tree-sitter grammar found beside its package) cannot be
  // bundled: they load from node_modules at run time, on first use (dynamic import).
  // `pg-native` is pg's optional libpq binding, never used: pith runs the JavaScript driver.
  external: ["@ast-grep/napi", "@ast-grep/lang-bash", "sharp", "pg-native"],
  define: { __PITH_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __pithCreateRequire } from 'node:module'; const require = __pithCreateRequire(import.meta.url);" },
  logLevel: "warning",
};

// Start clean: stale chunks of earlier builds would otherwise pile up in dist/chunks.
rmSync("dist", { recursive: true, force: true });

await build({
  ...common,
  // pg-worker: the session database's worker thread (started only with --session-store postgres://)
  entryPoints: { cli: "src/cli/main.ts", client: "src/client/index.ts", "pg-worker": "src/store/postgres/worker.ts" },
  outdir: "dist",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: "#!/usr/bin/env node\n" + common.banner.js },
});
chmodSync("dist/cli.js", 0o755);

// Type declarations for `pith/client` (skipped with PITH_BUILD_NO_TYPES=1 for quick rebuilds).
if (!process.env.PITH_BUILD_NO_TYPES) {
  const { execFileSync } = await import("node:child_process");
  const tsc = new URL("../node_modules/typescript/bin/tsc", import.meta.url).pathname;
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.client.json"], { stdio: "inherit" });
}
