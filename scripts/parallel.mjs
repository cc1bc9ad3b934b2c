/* global process, console, Buffer */
// Runs several npm scripts at the same time and fails when any of them fails: `npm test` builds,
// type-checks and lints side by side (each is mostly one single-threaded process, so on two
// cores three of them finish in about the time of the longest), then runs the tests.
// Each script's output is printed in one piece when it ends, so the logs do not interleave.
//
//   node scripts/parallel.mjs build typecheck lint
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error("usage: node scripts/parallel.mjs <npm script>...");
  process.exit(2);
}

const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];

/** Runs `npm run <name>`; resolves with its exit code, its output and how long it took. */
function run(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm[0], [...npm.slice(1), "run", "--silent", name], { stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => out.push(c));
    child.on("error", (err) => out.push(Buffer.from(`${String(err)}\n`)));
    child.on("close", (code, signal) => {
      resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(out).toString("utf8"), seconds: (Date.now() - started) / 1000 });
    });
  });
}

const results = await Promise.all(names.map((name) => run(name).then(report)));

function report(r) {
  const status = r.code === 0 ? "ok" : `FAILED (exit ${r.code})`;
  process.stdout.write(`\n── ${r.name}: ${status} in ${r.seconds.toFixed(1)} s ──\n${r.output}`);
  return r;
}

const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(", ")}`);
  process.exit(1);
}
