// The extension side of project trust: pi's `project_trust` event (the first "yes"/"no" decides),
// `ctx.isProjectTrusted()`, and extensions added to a running runner (a folder trusted later).
import { describe, expect, it } from "vitest";
import { createExtensionRuntime } from "./api.js";
import { loadExtensionFactory, type LoadedExtensions } from "./loader.js";
import { ExtensionRunner } from "./runner.js";
import { errorSink, fakeHost } from "../../test/support/extensions.js";
import type { ExtensionAPI } from "./types.js";

type Factory = (pi: ExtensionAPI) => void;

async function load(factories: Record<string, Factory>, runtime = createExtensionRuntime(() => undefined)): Promise<LoadedExtensions> {
  const loaded: LoadedExtensions = { runtime, extensions: [] };
  for (const [path, factory] of Object.entries(factories)) loaded.extensions.push(await loadExtensionFactory(path, factory, runtime));
  return loaded;
}

describe("project_trust", () => {
  it("asks handlers in load order: undecided, garbage and throws pass on; the first yes/no decides", async () => {
    const sink = errorSink();
    const asked: string[] = [];
    const loaded = await load({
      "/undecided.ts": (pi) => pi.on("project_trust", (e) => (asked.push(`u:${e.cwd}`), { trusted: "undecided" })),
      "/thrower.ts": (pi) =>
        pi.on("project_trust", () => {
          throw new Error("no opinion");
        }),
      "/garbage.ts": (pi) => pi.on("project_trust", () => ({ trusted: "maybe" }) as never),
      "/decider.ts": (pi) => pi.on("project_trust", (_e, ctx) => (asked.push(`d:${(ctx as unknown as { mode: string }).mode}`), { trusted: "no", remember: true })),
      "/late.ts": (pi) => pi.on("project_trust", () => (asked.push("late"), { trusted: "yes" })),
    });
    const runner = new ExtensionRunner(loaded, fakeHost(), sink.onError);
    expect(await runner.decideProjectTrust("/repo")).toEqual({ trusted: false, remember: true });
    expect(asked).toEqual(["u:/repo", "d:rpc"]);
    expect(sink.errors).toEqual([{ extensionPath: "/thrower.ts", event: "project_trust", error: "no opinion" }]);
  });

  it("no handler (or none deciding): undefined", async () => {
    const runner = new ExtensionRunner(await load({ "/a.ts": (pi) => pi.on("session_start", () => undefined) }), fakeHost(), () => undefined);
    expect(await runner.decideProjectTrust("/repo")).toBeUndefined();
  });
});

describe("ctx.isProjectTrusted() and extensions added later", () => {
  it("reads the host's answer each time (false when the host has none)", async () => {
    let trusted = false;
    const seen: boolean[] = [];
    const loaded = await load({ "/a.ts": (pi) => pi.on("agent_start", (_e, ctx) => void seen.push(ctx.isProjectTrusted())) });
    const runner = new ExtensionRunner(loaded, fakeHost(undefined, { isProjectTrusted: () => trusted }), () => undefined);
    await runner.emit({ type: "agent_start" });
    trusted = true;
    await runner.emit({ type: "agent_start" });
    expect(seen).toEqual([false, true]);
    const bare = new ExtensionRunner(await load({ "/b.ts": (pi) => pi.on("agent_start", (_e, ctx) => void seen.push(ctx.isProjectTrusted())) }), fakeHost(), () => undefined);
    await bare.emit({ type: "agent_start" });
    expect(seen).toEqual([false, true, false]);
  });

  it("add: the newcomers run after the others, get session_start (only they), and share the event bus", async () => {
    const log: string[] = [];
    const first = await load({
      "/user.ts": (pi) => {
        pi.on("session_start", () => void log.push("user:start"));
        pi.on("agent_start", () => void log.push("user:agent"));
        pi.events.on("ping", (d) => void log.push(`user heard ${String(d)}`));
      },
    });
    const runner = new ExtensionRunner(first, fakeHost(), () => undefined);
    await runner.emit({ type: "session_start", reason: "startup" });
    const later = await load(
      {
        "/project.ts": (pi) => {
          pi.on("session_start", () => {
            log.push("project:start");
            pi.events.emit("ping", "project");
          });
          pi.on("agent_start", () => void log.push("project:agent"));
          pi.registerCommand("proj", { handler: () => undefined });
        },
      },
      first.runtime,
    );
    await runner.add(later.extensions);
    await runner.emit({ type: "agent_start" });
    expect(log).toEqual(["user:start", "project:start", "user heard project", "user:agent", "project:agent"]);
    expect(runner.extensions.map((e) => e.path)).toEqual(["/user.ts", "/project.ts"]);
    expect(runner.commands().map((c) => c.name)).toEqual(["proj"]);
  });
});
