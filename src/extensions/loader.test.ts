import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NOT_INITIALIZED } from "./api.js";
import { discoverExtensionPaths, loadExtensionPaths, loadExtensions } from "./loader.js";
import { ExtensionRunner } from "./runner.js";
import { errorSink, fakeHost, recordingUi } from "../../test/support/extensions.js";

const EXAMPLES = resolve(import.meta.dirname, "../../examples/extensions");

const TS_EXTENSION = `
interface Greeting { who: string }
const greet = (g: Greeting): string => "hello " + g.who;
export default function (pi: any): void {
  pi.registerTool({
    name: "greet",
    label: "Greet",
    description: "Greets",
    parameters: { type: "object", properties: { who: { type: "string" } } },
    async execute(_id: string, params: Greeting) {
      return { content: [{ type: "text", text: greet(params) }] };
    },
  });
}
`;

let root: string;
let home: string;
let cwd: string;

function write(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pith-ext-"));
  home = join(root, "home");
  cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("discoverExtensionPaths", () => {
  it("finds files and index dirs in pithHome then the (trusted) project, then explicit paths, deduplicated", () => {
    const a = write(join(home, "extensions", "a.ts"), "export default () => {}");
    const dirIndex = write(join(home, "extensions", "pkg", "index.ts"), "export default () => {}");
    write(join(home, "extensions", "types.d.ts"), "");
    write(join(home, "extensions", "notes.md"), "");
    const m = write(join(cwd, ".pith", "extensions", "m.mjs"), "export default () => {}");
    const explicit = write(join(root, "x.js"), "export default () => {}");
    const paths = discoverExtensionPaths({ cwd, pithHome: home, paths: [explicit, a], project: true });
    expect(paths).toEqual([a, dirIndex, m, explicit]);
    // an untrusted folder's .pith/extensions is not searched (by default)
    expect(discoverExtensionPaths({ cwd, pithHome: home, paths: [explicit] })).toEqual([a, dirIndex, explicit]);
  });

  it("with discover:false loads only explicit paths; a relative path resolves against cwd", () => {
    write(join(home, "extensions", "a.ts"), "");
    const rel = write(join(cwd, "local.ts"), "");
    expect(discoverExtensionPaths({ cwd, pithHome: home, paths: ["local.ts"], discover: false })).toEqual([rel]);
  });
});

describe("loadExtensions", () => {
  it("loads a TypeScript file through jiti and its tool runs", async () => {
    write(join(home, "extensions", "greet.ts"), TS_EXTENSION);
    const sink = errorSink();
    const loaded = await loadExtensions({ cwd, pithHome: home, onError: sink.onError });
    expect(sink.errors).toEqual([]);
    const runner = new ExtensionRunner(loaded, fakeHost(), sink.onError);
    const [tool] = runner.registeredTools();
    expect(tool).toMatchObject({ name: "greet", label: "Greet", source: "extension" });
    const ctx = { cwd, toolCallId: "c1", signal: new AbortController().signal, onUpdate: () => {} };
    expect(await tool.execute({ who: "pith" }, ctx)).toEqual({ content: [{ type: "text", text: "hello pith" }] });
  });

  it("an extension outside any node_modules tree can import typebox (and pi's @sinclair/typebox)", async () => {
    const file = write(
      join(root, "schema.ts"),
      `import { Type } from "@sinclair/typebox";
import { Value } from "typebox/value";
const P = Type.Object({ n: Type.Number() });
export default (pi: any) => pi.registerTool({ name: "t", description: "d", parameters: P,
  execute: async () => ({ content: [{ type: "text", text: String(Value.Check(P, { n: 1 })) }] }) });`,
    );
    const sink = errorSink();
    const loaded = await loadExtensionPaths([file], sink.onError);
    expect(sink.errors).toEqual([]);
    const [tool] = new ExtensionRunner(loaded, fakeHost(), sink.onError).registeredTools();
    expect(tool.parameters).toMatchObject({ type: "object", required: ["n"] });
    const ctx = { cwd, toolCallId: "c1", signal: new AbortController().signal, onUpdate: () => {} };
    expect((await tool.execute({}, ctx)).content).toEqual([{ type: "text", text: "true" }]);
  });

  it("reports each broken module with event load and still loads the others", async () => {
    const dir = join(home, "extensions");
    const syntax = write(join(dir, "1-syntax.ts"), "export default function (pi { ");
    const throws = write(join(dir, "2-throws.ts"), "export default function () { throw new Error('factory blew up'); }");
    const noDefault = write(join(dir, "3-nodefault.ts"), "export const x = 1;");
    write(join(dir, "4-good.ts"), TS_EXTENSION);
    const sink = errorSink();
    const { extensions } = await loadExtensions({ cwd, pithHome: home, onError: sink.onError });
    expect(extensions.map((e) => e.path)).toEqual([join(dir, "4-good.ts")]);
    expect(sink.errors.map((e) => [e.extensionPath, e.event])).toEqual([
      [syntax, "load"],
      [throws, "load"],
      [noDefault, "load"],
    ]);
    expect(sink.errors[0].error).toMatch(/^Failed to load extension: /);
    expect(sink.errors[1].error).toBe("Failed to load extension: factory blew up");
    expect(sink.errors[2].error).toBe(`Extension does not export a valid factory function: ${noDefault}`);
  });

  it("a missing explicit path is a load error, not a crash", async () => {
    const sink = errorSink();
    const { extensions } = await loadExtensions({ cwd, paths: [join(root, "nope.ts")], onError: sink.onError });
    expect(extensions).toEqual([]);
    expect(sink.errors).toHaveLength(1);
    expect(sink.errors[0].event).toBe("load");
  });

  it("action methods called inside the factory fail the load with pi's message", async () => {
    const file = write(join(root, "eager.ts"), "export default (pi: any) => { pi.sendMessage({customType:'x', content:'y', display:true}); };");
    const sink = errorSink();
    await loadExtensionPaths([file], sink.onError);
    expect(sink.errors[0].error).toBe(`Failed to load extension: ${NOT_INITIALIZED}`);
  });
});

describe("the example extensions", () => {
  const paths = ["ask-user.ts", "broken.ts", "notify-on-turn.ts"].map((f) => join(EXAMPLES, f));

  it("broken.ts is reported, the other two load", async () => {
    const sink = errorSink();
    const { extensions } = await loadExtensionPaths(paths, sink.onError);
    expect(extensions.map((e) => e.path)).toEqual([paths[0], paths[2]]);
    expect(sink.errors).toEqual([
      { extensionPath: paths[1], event: "load", error: "Failed to load extension: broken extension: fails at load time on purpose" },
    ]);
  });

  it("deploy_check asks confirm, select, input and returns the answers", async () => {
    const sink = errorSink();
    const loaded = await loadExtensionPaths([paths[0]], sink.onError);
    const ui = recordingUi([true, "production", "fix login"]);
    const runner = new ExtensionRunner(loaded, fakeHost(ui), sink.onError);
    const tool = runner.registeredTools().find((t) => t.name === "deploy_check");
    const ctx = { cwd, toolCallId: "c1", signal: new AbortController().signal, onUpdate: () => {} };
    const result = await tool!.execute({ service: "api" }, ctx);
    expect(ui.calls.map((c) => c.method)).toEqual(["confirm", "select", "input", "notify"]);
    expect(ui.calls[1].args.slice(0, 2)).toEqual(["Environment", ["staging", "production"]]);
    expect(result.content).toEqual([{ type: "text", text: "confirmed=true environment=production note=fix login" }]);
  });

  it("notify-on-turn notifies on turn_end and its throwing handler becomes an error report", async () => {
    const sink = errorSink();
    const loaded = await loadExtensionPaths([paths[2]], sink.onError);
    const ui = recordingUi();
    const runner = new ExtensionRunner(loaded, fakeHost(ui), sink.onError);
    await runner.emit({ type: "before_agent_start", prompt: "please-break-the-extension", systemPrompt: "", systemPromptOptions: { cwd: "/" } });
    expect(sink.errors).toEqual([
      {
        extensionPath: paths[2],
        event: "before_agent_start",
        error: "notify-on-turn refused the prompt (it contains please-break-the-extension)",
      },
    ]);
    await runner.emit({ type: "agent_start" });
    await runner.emit({ type: "turn_start" });
    await runner.emit({ type: "turn_end", message: {} as never, toolResults: [] });
    expect(ui.calls[0]).toEqual({ method: "notify", args: ["Turn 0 finished", "info"] });
    expect(await runner.runCommand("/turns reset")).toBe(true);
    expect(ui.calls.at(-1)).toEqual({ method: "notify", args: ["0 turn(s) so far", "info"] });
  });
});
