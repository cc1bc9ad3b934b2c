#!/usr/bin/env node
// A scripted language server for tests, speaking LSP over stdio through vscode-jsonrpc.
//
//   fake-lsp-server.mjs [mode]
//     normal   every line of an opened or changed document containing "ERROR" is an error
//              diagnostic (published 20 ms later, without a version); formatting upper-cases
//              "fmt"; rename replaces the word at the position in every file of the same type
//              in the root and its subfolders; everything else is left to the library
//              (unknown requests: method not found)
//     hang     reads its input and never answers anything, initialize included
//     mute     answers initialize, then never publishes nor answers anything else
//     crash    answers initialize, then exits with code 3 on the first opened document
//
// FAKE_LSP_LOG=<file>: every process start appends "start <pid>" to it.
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { setInterval, setTimeout } from "node:timers";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const rpc = require("vscode-languageserver-protocol/node");

const mode = process.argv[2] ?? "normal";
// pith gone (its end of the pipe closed): so is the server, whatever its mode
process.stdin.on("end", () => process.exit(0));
try {
  if (process.env.FAKE_LSP_LOG) appendFileSync(process.env.FAKE_LSP_LOG, `start ${process.pid} ${mode}\n`);
} catch (err) {
  process.stderr.write(`fake server: cannot write the log: ${err.code}\n`); // inside a sandbox, by design
}

if (mode === "hang") {
  process.stdin.on("data", () => undefined);
  setInterval(() => undefined, 1 << 30);
} else {
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));
  const docs = new Map();
  const publish = (uri) => {
    const text = docs.get(uri) ?? "";
    const diagnostics = text.split("\n").flatMap((line, n) => {
      const at = line.indexOf("ERROR");
      return at === -1 ? [] : [{ range: { start: { line: n, character: at }, end: { line: n, character: at + 5 } }, severity: 1, source: "fake", message: `ERROR found on line ${n + 1}` }];
    });
    setTimeout(() => conn.sendNotification("textDocument/publishDiagnostics", { uri, diagnostics }), 20);
  };
  let root = process.cwd();
  conn.onRequest("initialize", (p) => {
    if (p.rootUri) root = fileURLToPath(p.rootUri);
    return { capabilities: { textDocumentSync: 1, documentFormattingProvider: mode === "normal", renameProvider: mode === "normal" } };
  });
  conn.onRequest("textDocument/rename", (p) => {
    const line = (docs.get(p.textDocument.uri) ?? "").split("\n")[p.position.line] ?? "";
    const word = /\w+/.exec(line.slice(p.position.character))?.[0];
    if (!word) return null;
    const ext = path.extname(fileURLToPath(p.textDocument.uri));
    const changes = {};
    for (const dir of [root, ...readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(root, e.name))]) {
      for (const name of readdirSync(dir).filter((n) => n.endsWith(ext))) {
        const file = path.join(dir, name);
        const edits = readFileSync(file, "utf8").split("\n").flatMap((text, n) =>
          [...text.matchAll(new RegExp(`\\b${word}\\b`, "g"))].map((m) => ({ range: { start: { line: n, character: m.index }, end: { line: n, character: m.index + word.length } }, newText: p.newName })),
        );
        if (edits.length > 0) changes[pathToFileURL(file).href] = edits;
      }
    }
    return { changes };
  });
  conn.onNotification("initialized", () => undefined);
  conn.onNotification("textDocument/didOpen", (p) => {
    if (mode === "crash") {
      process.stderr.write("fake server: crashing on purpose\n");
      process.exit(3);
    }
    docs.set(p.textDocument.uri, p.textDocument.text);
    if (mode === "normal") publish(p.textDocument.uri);
  });
  conn.onNotification("textDocument/didChange", (p) => {
    docs.set(p.textDocument.uri, p.contentChanges.at(-1).text);
    if (mode === "normal") publish(p.textDocument.uri);
  });
  conn.onNotification("textDocument/didClose", (p) => {
    docs.delete(p.textDocument.uri);
    if (mode === "normal") conn.sendNotification("textDocument/publishDiagnostics", { uri: p.textDocument.uri, diagnostics: [] });
  });
  conn.onRequest("textDocument/formatting", (p) => {
    const text = docs.get(p.textDocument.uri) ?? "";
    const lines = text.split("\n");
    return lines.flatMap((line, n) => {
      const at = line.indexOf("fmt");
      return at === -1 ? [] : [{ range: { start: { line: n, character: at }, end: { line: n, character: at + 3 } }, newText: "FMT" }];
    });
  });
  if (mode === "mute") {
    conn.onRequest(() => new Promise(() => undefined));
  }
  conn.onRequest("shutdown", () => null);
  conn.onNotification("exit", () => process.exit(0));
  conn.listen();
}
