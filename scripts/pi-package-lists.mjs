/* global process, console, setTimeout, clearTimeout */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// pi 0.87.1's own commands and tools for one pi package (the expected values of
// test/e2e/pi-packages.test.ts): runs pi in RPC mode with the package and a probe extension,
// sends get_commands, and prints pi.getAllTools() / getActiveTools(). pi needs Node >= 22.19:
//   PI_NODE=/path/to/node22 node scripts/pi-package-lists.mjs node_modules/<package>
const [pkg] = process.argv.slice(2);
const NODE = process.env.PI_NODE ?? process.execPath;
const PROBE = join(mkdtempSync(join(tmpdir(), "piprobe-")), "probe.mjs");
writeFileSync(PROBE, `export default function (pi) {
  pi.registerCommand("probe-tools", { description: "probe", handler: async (_a, ctx) => {
    ctx.ui.notify(JSON.stringify({ all: pi.getAllTools().map((t) => t.name), active: pi.getActiveTools() }), "info");
  } });
}`);
const home = mkdtempSync(join(tmpdir(), "piref-"));
const child = spawn(NODE, ["node_modules/@earendil-works/pi-coding-agent/dist/cli.js", "--mode", "rpc", "--no-session", "-e", pkg, "-e", PROBE], {
  cwd: process.cwd(), env: { ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" }, stdio: ["pipe", "pipe", "pipe"] });
let buf = ""; const out = {};
let stderr = "";
child.stderr.on("data", d => stderr += d);
child.stdout.on("data", d => { buf += d; let i; while ((i = buf.indexOf("\n")) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); let f; try { f = JSON.parse(line); } catch { console.log("RAW", line); continue; }
  if (f.type === "response" && f.command === "get_commands") { out.commands = f.data.commands.map(c => `${c.source}:${c.name}`); child.stdin.write(JSON.stringify({ type: "prompt", id: "p", message: "/probe-tools" }) + "\n"); }
  else if (f.type === "extension_ui_request" && f.method === "notify" && f.message.startsWith("{\"all\"")) { Object.assign(out, JSON.parse(f.message)); console.log(JSON.stringify(out, null, 1)); child.stdin.end(); }
  else if (f.type === "extension_error" || (f.type==="response" && !f.success)) console.log("ERR", line);
  else if (process.env.V) console.log(line.slice(0, 300));
} });
child.on("exit", (c) => { clearTimeout(tm); console.log("exit", c); if (process.env.V) console.log(stderr); });
setTimeout(() => child.stdin.write(JSON.stringify({ type: "get_commands", id: "c" }) + "\n"), 6000);
const tm = setTimeout(() => { console.log("TIMEOUT", stderr.slice(0, 2000)); child.kill(); }, 60000);
