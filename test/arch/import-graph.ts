// Import-graph checks behind the architecture tests: which src folder may import which (the layer
// table of docs/architecture.md), cycles between folders, and the file size cap.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** Folder → folders it may import. `shared` may be imported by every folder. */
export const LAYERS: Record<string, readonly string[]> = {
  shared: [],
  protocol: ["shared"],
  transport: ["shared"],
  providers: ["shared"],
  tools: ["shared"],
  mcp: ["shared", "tools"],
  lsp: ["shared", "tools"],
  policy: ["shared"],
  checkpoints: ["shared"],
  store: ["shared"],
  rules: ["shared"],
  agent: ["shared", "providers", "tools"],
  extensions: ["shared", "agent", "tools"],
  session: ["shared", "protocol", "transport", "providers", "tools", "mcp", "policy", "checkpoints", "store", "rules", "agent", "extensions"],
  rpc: ["shared", "protocol", "transport", "session"],
  acp: ["shared", "session"],
  client: ["shared", "protocol", "transport"],
  serve: ["shared", "protocol", "transport", "session", "rpc"],
  cli: ["shared", "protocol", "transport", "providers", "tools", "mcp", "lsp", "policy", "checkpoints", "store", "rules", "agent", "extensions", "session", "rpc", "acp", "serve"],
};

export interface SourceFile {
  /** Path relative to src/, with forward slashes. */
  path: string;
  text: string;
}

export interface ImportEdge {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

/** Every non-test .ts file under `srcDir` (test helpers live in test/support/, outside it). */
export function readSources(srcDir: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        out.push({ path: relative(srcDir, full).split(sep).join("/"), text: readFileSync(full, "utf8") });
      }
    }
  };
  walk(srcDir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Static imports, `export ... from` and dynamic `import("...")` specifiers. */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

function folderOf(path: string): string {
  const i = path.indexOf("/");
  return i === -1 ? "(src root)" : path.slice(0, i);
}

/** The `to` of an import that leaves src/ (test helpers, scripts): never allowed in production code. */
export const OUTSIDE_SRC = "(outside src)";

/** Cross-folder edges between src folders (relative imports only; packages are not layers). */
export function importEdges(files: SourceFile[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const specifier of importSpecifiers(file.text)) {
      if (!specifier.startsWith(".")) continue;
      const target = relative("/src", resolve("/src", dirname(file.path), specifier)).split(sep).join("/");
      if (target.startsWith("..")) {
        edges.push({ file: file.path, specifier, from: folderOf(file.path), to: OUTSIDE_SRC });
        continue;
      }
      const from = folderOf(file.path);
      const to = folderOf(target);
      if (from !== to) edges.push({ file: file.path, specifier, from, to });
    }
  }
  return edges;
}

/** One message per import that breaks the layer table. */
export function layerViolations(edges: ImportEdge[], layers: Record<string, readonly string[]> = LAYERS): string[] {
  const problems: string[] = [];
  for (const edge of edges) {
    const allowed = layers[edge.from];
    if (edge.to === OUTSIDE_SRC) {
      problems.push(`src/${edge.file} imports "${edge.specifier}": production code may not import from outside src/ (test helpers live in test/support/)`);
    } else if (!allowed) {
      problems.push(`src/${edge.file}: folder "${edge.from}" is not in the layer table (docs/architecture.md)`);
    } else if (!allowed.includes(edge.to)) {
      const may = allowed.length ? allowed.join(", ") : "nothing";
      problems.push(`src/${edge.file} imports "${edge.specifier}": ${edge.from} → ${edge.to} is not allowed (${edge.from} may import ${may})`);
    }
  }
  return problems;
}

/** Cycles between folders, each as "a → b → a" with one example import per step. */
export function folderCycles(edges: ImportEdge[]): string[] {
  const graph = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    if (!graph.has(edge.from)) graph.set(edge.from, new Map());
    const targets = graph.get(edge.from)!;
    if (!targets.has(edge.to)) targets.set(edge.to, edge);
  }
  const cycles = new Set<string>();
  const visit = (node: string, path: string[]) => {
    for (const [next, edge] of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at !== -1) {
        const loop = [...path.slice(at), next];
        const rotated = canonical(loop.slice(0, -1));
        const steps = loop.slice(0, -1).map((f, i) => graph.get(f)!.get(loop[i + 1])!);
        cycles.add(`${rotated.join(" → ")} → ${rotated[0]} (${steps.map((s) => `src/${s.file} imports ${s.specifier}`).join("; ")})`);
        void edge;
      } else if (path.length < 20) {
        visit(next, [...path, next]);
      }
    }
  };
  for (const node of graph.keys()) visit(node, [node]);
  return [...new Map([...cycles].map((c) => [c.split(" (")[0], c])).values()].sort();
}

function canonical(nodes: string[]): string[] {
  let best = 0;
  for (let i = 1; i < nodes.length; i++) if (nodes[i] < nodes[best]) best = i;
  return [...nodes.slice(best), ...nodes.slice(0, best)];
}

/** An import between two src files (type-only and dynamic imports included). */
export interface FileEdge {
  from: string;
  to: string;
  specifier: string;
}

/** Every relative import resolved to the src file it names (`x.js` → `x.ts`, a folder → its index.ts). */
export function fileEdges(files: SourceFile[]): FileEdge[] {
  const known = new Set(files.map((f) => f.path));
  const edges: FileEdge[] = [];
  for (const file of files) {
    for (const specifier of importSpecifiers(file.text)) {
      if (!specifier.startsWith(".")) continue;
      const target = relative("/src", resolve("/src", dirname(file.path), specifier)).split(sep).join("/");
      const to = [target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}/index.ts`].find((c) => known.has(c));
      if (to) edges.push({ from: file.path, to, specifier });
    }
  }
  return edges;
}

/** Imports of a folder's private files from outside it: only `<folder>/index.ts` is its door. */
export function doorViolations(edges: FileEdge[], doors: readonly string[]): string[] {
  const problems: string[] = [];
  for (const door of doors) {
    for (const e of edges) {
      if (e.from.startsWith(`${door}/`) || !e.to.startsWith(`${door}/`) || e.to === `${door}/index.ts`) continue;
      problems.push(`src/${e.from} imports "${e.specifier}": only src/${door}/index.ts may be imported from outside src/${door}/`);
    }
  }
  return problems;
}

/** Groups of files that import each other, directly or through a loop (Tarjan's strongly connected components). */
export function fileCycles(edges: FileEdge[]): string[] {
  const graph = new Map<string, string[]>();
  for (const e of edges) {
    if (!graph.has(e.from)) graph.set(e.from, []);
    graph.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    const selfLoop = group.length === 1 && (graph.get(v) ?? []).includes(v);
    if (group.length > 1 || selfLoop) found.push(group.sort().map((f) => `src/${f}`).join(" ↔ "));
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found.sort();
}

/** Files over `maxLines` lines, as "src/<path>: <n> lines". */
export function oversizedFiles(files: SourceFile[], maxLines: number): string[] {
  return files
    .map((f) => ({ path: f.path, lines: f.text.split("\n").length - (f.text.endsWith("\n") ? 1 : 0) }))
    .filter((f) => f.lines > maxLines)
    .map((f) => `src/${f.path}: ${f.lines} lines (max ${maxLines})`);
}

export const SRC_DIR = resolve(dirname(new URL(import.meta.url).pathname), "../../src");
