// A real MCP server over stdio (the official SDK's StdioServerTransport) serving the fixture
// tools (fixture-tools.mjs). It announces itself on stderr ("fixture <name> ready pid=<pid>").
// Flags:
//   --name <name>          server name (default "fixture")
//   --exit-at-start <code> write to stderr and exit before speaking MCP (a server that cannot start)
//   --start-delay-ms <ms>  wait before connecting (a slow starter)
//   --never-initialize     read stdin but never answer (a stalled server)
//   --junk-stdout          write a non-JSON line on stdout before connecting
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createFixtureServer } from "./fixture-tools.mjs";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};

const name = option("--name") ?? "fixture";
if (option("--exit-at-start") !== undefined) {
  process.stderr.write(`fixture ${name}: cannot start\n`);
  process.exit(Number(option("--exit-at-start")));
}
if (flag("--never-initialize")) {
  process.stdin.resume();
  process.stderr.write(`fixture ${name} stalled pid=${process.pid}\n`);
} else {
  const delay = Number(option("--start-delay-ms") ?? 0);
  if (delay > 0) await sleep(delay);
  if (flag("--junk-stdout")) process.stdout.write("this is not json\n");
  const server = createFixtureServer(name);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`fixture ${name} ready pid=${process.pid}\n`);
}
