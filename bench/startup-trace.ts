// Import trace of startup: what the entry bundle (dist/cli.js plus its static chunk imports)
// makes V8 parse and evaluate before `ready`, grouped by package / src folder, largest first.
// Lazy chunks (providers, jiti) are listed separately: they cost nothing until first use.
// Usage: node --import tsx bench/startup-trace.ts [--detail=<group substring>]
// (--detail lists the eager input files of the matching groups, largest first.)
import { startupBundle } from "../test/support/startup-bundle.js";

function group(path: string): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (nm) return nm[1];
  const src = /^src\/([^/]+)(?:\/([^/]+))?/.exec(path);
  if (src) return src[2] && !src[2].includes(".") ? `src/${src[1]}/${src[2]}` : `src/${src[1]}`;
  return path;
}

const { meta, eagerOutputs: eager } = await startupBundle("/tmp/pith-startup-trace");
const sizes = new Map<string, number>();
let total = 0;
for (const out of eager) {
  for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[out].inputs)) {
    sizes.set(group(input), (sizes.get(group(input)) ?? 0) + bytesInOutput);
    total += bytesInOutput;
  }
}
console.log(`eager (parsed before ready): ${(total / 1024).toFixed(0)} KiB in ${eager.length} files`);
for (const [g, b] of [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(b / 1024).toFixed(1).padStart(8)} KiB  ${g}`);
const detail = process.argv.find((a) => a.startsWith("--detail="))?.slice("--detail=".length);
if (detail !== undefined) {
  const files: [string, number][] = [];
  for (const out of eager) for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[out].inputs)) if (group(input).includes(detail)) files.push([input, bytesInOutput]);
  console.log(`eager inputs matching "${detail}":`);
  for (const [f, b] of files.sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(b / 1024).toFixed(1).padStart(8)} KiB  ${f}`);
}
console.log("lazy chunks (loaded on first use):");
for (const [out, o] of Object.entries(meta.outputs)) {
  if (eager.includes(out) || out.endsWith(".map")) continue;
  console.log(`${(o.bytes / 1024).toFixed(1).padStart(8)} KiB  ${out.split("/").pop()}`);
}
