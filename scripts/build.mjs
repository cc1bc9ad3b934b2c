/* global URL */
// Bundles the CLI and the host client. Provider SDKs stay external-free but are split
// out so that startup only pays for what the first command needs.
import { build } from "esbuild";
import { readFileSync, chmodSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: false,
  legalComments: "none",
  define: { __PITH_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: "import { createRequire as __pithCreateRequire } from 'node:module'; const require = __pithCreateRequire(import.meta.url);" },
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: { cli: "src/cli/main.ts", client: "src/rpc/client/index.ts" },
  outdir: "dist",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: "#!/usr/bin/env node\n" + common.banner.js },
});
chmodSync("dist/cli.js", 0o755);
