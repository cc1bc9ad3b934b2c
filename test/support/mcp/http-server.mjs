// A real MCP server over HTTP on 127.0.0.1 serving the fixture tools (fixture-tools.mjs):
// streamable HTTP (stateful, the official SDK's StreamableHTTPServerTransport) at /mcp and the
// legacy HTTP+SSE transport (SSEServerTransport) at /sse + /messages. It listens on an ephemeral
// port and writes {"port":N,"pid":N} as its first stdout line.
// Flags: --name <name> (default "fixture-http"); --require-header <name>=<value> (answer 401
// without it; the value is compared exactly); --port <n> (default: any free port).
import { Buffer } from "node:buffer";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import process from "node:process";
import { URL } from "node:url";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createFixtureServer } from "./fixture-tools.mjs";

const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
const name = option("--name") ?? "fixture-http";
const required = option("--require-header")?.split("=");

const streamable = new Map();
const sse = new Map();

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? JSON.parse(raw) : undefined;
}

async function handleStreamable(req, res) {
  const body = req.method === "POST" ? await readBody(req) : undefined;
  const id = req.headers["mcp-session-id"];
  let transport = typeof id === "string" ? streamable.get(id) : undefined;
  if (!transport && req.method === "POST" && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => streamable.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && streamable.delete(transport.sessionId);
    await createFixtureServer(name).connect(transport);
  }
  if (!transport) {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "no session" }, id: null }));
    return;
  }
  await transport.handleRequest(req, res, body);
}

async function handleSse(req, res, url) {
  if (req.method === "GET" && url.pathname === "/sse") {
    const transport = new SSEServerTransport("/messages", res);
    sse.set(transport.sessionId, transport);
    res.on("close", () => sse.delete(transport.sessionId));
    await createFixtureServer(name).connect(transport);
    return;
  }
  const transport = sse.get(url.searchParams.get("sessionId") ?? "");
  if (!transport) {
    res.writeHead(404).end("unknown session");
    return;
  }
  await transport.handlePostMessage(req, res, await readBody(req));
}

const http = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (required && req.headers[required[0].toLowerCase()] !== required[1]) {
    res.writeHead(401).end("missing or wrong header");
    return;
  }
  const handle = url.pathname === "/mcp" ? handleStreamable(req, res) : handleSse(req, res, url);
  handle.catch((err) => {
    process.stderr.write(`fixture http error: ${err?.stack ?? err}\n`);
    if (!res.headersSent) res.writeHead(500).end(String(err));
  });
});
http.listen(Number(option("--port") ?? 0), "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: http.address().port, pid: process.pid }) + "\n");
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
