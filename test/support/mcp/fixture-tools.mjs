// The tools every MCP test fixture serves, written with the official SDK's server side
// (`McpServer`). One function registers them on a server; the stdio and HTTP entry points
// (stdio-server.mjs, http-server.mjs) only differ in transport.
//
//   echo {text}            text back, prefixed with the server name ("<name>: <text>")
//   image {}               a caption and a 1×1 PNG
//   fail {message}         an `isError` result carrying `message`
//   progress {steps, delayMs?}  one progress notification per step, then "done after N steps"
//   hang {}                reports progress 0 ("hanging"), never answers; counts the MCP cancellation when it arrives
//   cancellations {}       how many cancellations this process has received
//   crash {code?}          exits the process (default code 3) in the middle of the call
//   resources {}           embedded text resource, embedded blob (PNG and octet-stream), resource link
//   add_tool {name}        registers tool `name` (it answers "<name> is here"): list_changed follows
//   remove_tool {name}     removes a tool added by add_tool: list_changed follows
//   spawn_child {}         starts `sleep 300` in this process group, answers its pid
//   pid {}                 this process's pid
//   env {name}             the value of an environment variable, or "(unset)"
//   cwd {}                 this process's working directory
//   structured {}          only structuredContent, no content blocks
//   peek {}                annotated readOnlyHint: true; answers "<name> peeked"
//   touch {path}           no readOnlyHint (may change anything): writes `path`, answers "touched <path>"
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** A 1×1 transparent PNG. */
export const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const state = { cancellations: 0, added: new Map() };

/** A new McpServer named `name` with every fixture tool registered. */
export function createFixtureServer(name) {
  const server = new McpServer({ name, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  const text = (t) => ({ content: [{ type: "text", text: t }] });

  server.registerTool("echo", { description: "Echoes text back", inputSchema: { text: z.string() } }, async ({ text: t }) => text(`${name}: ${t}`));
  server.registerTool("image", { description: "Returns a tiny PNG" }, async () => ({
    content: [
      { type: "text", text: "a 1x1 png" },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
    ],
  }));
  server.registerTool("fail", { description: "Fails with isError", inputSchema: { message: z.string() } }, async ({ message }) => ({
    isError: true,
    content: [{ type: "text", text: message }],
  }));
  server.registerTool(
    "progress",
    { description: "Streams progress, then answers", inputSchema: { steps: z.number().int(), delayMs: z.number().int().optional() } },
    async ({ steps, delayMs }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        if (token !== undefined) {
          await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
        }
        await sleep(delayMs ?? 10);
      }
      return text(`done after ${steps} steps`);
    },
  );
  server.registerTool("hang", { description: "Never answers" }, async (extra) => {
    const stopped = new Promise((_resolve, reject) => {
      extra.signal.addEventListener("abort", () => {
        state.cancellations++;
        reject(new Error("cancelled"));
      });
    });
    // Says it is running (a progress update when the caller asked for them), then never answers.
    const token = extra._meta?.progressToken;
    if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 0, message: "hanging" } });
    return stopped;
  });
  server.registerTool("cancellations", { description: "Counts cancellations received" }, async () => text(String(state.cancellations)));
  server.registerTool("crash", { description: "Exits the process", inputSchema: { code: z.number().int().optional() } }, async ({ code }) => {
    process.stderr.write(`${name}: crashing on purpose\n`);
    process.exit(code ?? 3);
  });
  server.registerTool("resources", { description: "Returns resource content" }, async () => ({
    content: [
      { type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "the notes" } },
      { type: "resource", resource: { uri: "file:///pixel.png", mimeType: "image/png", blob: PNG_1X1 } },
      { type: "resource", resource: { uri: "file:///data.bin", mimeType: "application/octet-stream", blob: "AAEC" } },
      { type: "resource_link", uri: "file:///big.log", name: "big.log", description: "a large log", mimeType: "text/plain" },
    ],
  }));
  server.registerTool("add_tool", { description: "Adds a tool", inputSchema: { name: z.string() } }, async ({ name: toolName }) => {
    const tool = server.registerTool(toolName, { description: `Added at runtime` }, async () => text(`${toolName} is here`));
    state.added.set(toolName, tool);
    return text(`added ${toolName}`);
  });
  server.registerTool("remove_tool", { description: "Removes an added tool", inputSchema: { name: z.string() } }, async ({ name: toolName }) => {
    state.added.get(toolName)?.remove();
    state.added.delete(toolName);
    return text(`removed ${toolName}`);
  });
  server.registerTool("spawn_child", { description: "Starts sleep 300 in this process group" }, async () => {
    const child = spawn("sleep", ["300"], { stdio: "ignore" });
    child.unref();
    return text(String(child.pid));
  });
  server.registerTool("pid", { description: "This process's pid" }, async () => text(String(process.pid)));
  server.registerTool("env", { description: "An environment variable", inputSchema: { name: z.string() } }, async ({ name: v }) => text(process.env[v] ?? "(unset)"));
  server.registerTool("cwd", { description: "The working directory" }, async () => text(process.cwd()));
  server.registerTool("structured", { description: "Structured content only" }, async () => ({ content: [], structuredContent: { answer: 42 } }));
  server.registerTool("peek", { description: "Looks without changing anything", annotations: { readOnlyHint: true } }, async () => text(`${name} peeked`));
  server.registerTool("touch", { description: "Writes a file", inputSchema: { path: z.string() } }, async ({ path }) => {
    writeFileSync(path, "touched\n");
    return text(`touched ${path}`);
  });
  return server;
}
