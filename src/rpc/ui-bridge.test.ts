import { afterEach, describe, expect, it, vi } from "vitest";
import { createRpcUiBridge } from "./ui-bridge.js";

function bridge(emitTitle = false) {
  const frames: Record<string, unknown>[] = [];
  let n = 0;
  const ui = createRpcUiBridge({
    writeFrame: (f) => frames.push(f as Record<string, unknown>),
    newId: () => `id${++n}`,
    emitTitle,
  });
  return { ui, frames };
}

afterEach(() => vi.useRealTimers());

describe("rpc ui bridge: request frames", () => {
  it("sends each method with its fields and a fresh id, omitting absent ones", () => {
    const { ui, frames } = bridge();
    void ui.select("Pick", ["a", "b"], { timeout: 500 });
    void ui.confirm("Sure?", "Really?");
    void ui.input("Name", "your name");
    void ui.editor("Edit", "draft", { promptStyle: true });
    ui.notify("Saved", "info");
    ui.setStatus("lint", "ok");
    ui.setStatus("lint");
    ui.setWidget("w", ["l1", "l2"], { placement: "belowEditor" });
    ui.setWidget("w");
    ui.setWidget("w", (() => ({})) as never);
    ui.setEditorText("text");
    expect(ui.getEditorText()).toBe("");
    const t = "extension_ui_request";
    expect(frames).toEqual([
      { type: t, id: "id1", method: "select", title: "Pick", options: ["a", "b"], timeout: 500 },
      { type: t, id: "id2", method: "confirm", title: "Sure?", message: "Really?" },
      { type: t, id: "id3", method: "input", title: "Name", placeholder: "your name" },
      { type: t, id: "id4", method: "editor", title: "Edit", prefill: "draft", promptStyle: true },
      { type: t, id: "id5", method: "notify", message: "Saved", notifyType: "info" },
      { type: t, id: "id6", method: "setStatus", statusKey: "lint", statusText: "ok" },
      { type: t, id: "id7", method: "setStatus", statusKey: "lint" },
      { type: t, id: "id8", method: "setWidget", widgetKey: "w", widgetLines: ["l1", "l2"], widgetPlacement: "belowEditor" },
      { type: t, id: "id9", method: "setWidget", widgetKey: "w" },
      { type: t, id: "id10", method: "set_editor_text", text: "text" },
    ]);
    expect(Object.keys(frames[2])).not.toContain("timeout");
    expect(ui.pendingCount).toBe(4);
  });

  it("sends setTitle only when emitTitle is set", () => {
    const off = bridge(false);
    off.ui.setTitle("t");
    expect(off.frames).toEqual([]);
    const on = bridge(true);
    on.ui.setTitle("t");
    expect(on.frames).toEqual([{ type: "extension_ui_request", id: "id1", method: "setTitle", title: "t" }]);
  });
});

describe("rpc ui bridge: responses (in the documented order)", () => {
  it("select/input/editor take value; confirm takes confirmed and ignores value", async () => {
    const { ui } = bridge();
    const s = ui.select("t", ["a"]);
    const i = ui.input("t");
    const e = ui.editor("t");
    const c1 = ui.confirm("t", "m");
    const c2 = ui.confirm("t", "m");
    ui.handleResponse({ id: "id1", value: "a" });
    ui.handleResponse({ id: "id2", confirmed: true });
    ui.handleResponse({ id: "id3", value: "" });
    ui.handleResponse({ id: "id4", confirmed: true, value: "x" });
    ui.handleResponse({ id: "id5", value: "yes" });
    expect(await Promise.all([s, i, e, c1, c2])).toEqual(["a", undefined, "", true, false]);
  });

  it("cancelled wins over a value; timedOut also runs onTimeout", async () => {
    const { ui } = bridge();
    const onTimeout = vi.fn();
    const s = ui.select("t", ["a"], { onTimeout });
    const c = ui.confirm("t", "m", { onTimeout });
    ui.handleResponse({ id: "id1", cancelled: true, value: "a" });
    ui.handleResponse({ id: "id2", cancelled: true, timedOut: true, confirmed: true });
    expect(await s).toBeUndefined();
    expect(await c).toBe(false);
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });

  it("ignores unknown ids, fire-and-forget ids and second answers", async () => {
    const { ui } = bridge();
    ui.notify("n");
    const s = ui.select("t", ["a", "b"]);
    ui.handleResponse({ id: "nope", value: "b" });
    ui.handleResponse({ id: "id1", value: "b" });
    expect(ui.pendingCount).toBe(1);
    ui.handleResponse({ id: "id2", value: "a" });
    ui.handleResponse({ id: "id2", value: "b" });
    expect(await s).toBe("a");
    expect(ui.pendingCount).toBe(0);
  });
});

describe("rpc ui bridge: timeout, abort, EOF", () => {
  it("on timeout resolves the default, runs onTimeout and sends cancel; a late answer is ignored", async () => {
    vi.useFakeTimers();
    const { ui, frames } = bridge();
    const onTimeout = vi.fn();
    const c = ui.confirm("t", "m", { timeout: 1000, onTimeout });
    vi.advanceTimersByTime(999);
    expect(frames).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(await c).toBe(false);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    expect(frames[1]).toEqual({ type: "extension_ui_request", id: "id2", method: "cancel", targetId: "id1" });
    ui.handleResponse({ id: "id1", confirmed: true });
    expect(ui.pendingCount).toBe(0);
  });

  it("a timeout of 0 still starts a timer", async () => {
    vi.useFakeTimers();
    const { ui } = bridge();
    const s = ui.input("t", undefined, { timeout: 0 });
    vi.advanceTimersByTime(0);
    expect(await s).toBeUndefined();
  });

  it("abort resolves the default and sends cancel; an already-aborted signal sends nothing", async () => {
    const { ui, frames } = bridge();
    const ac = new AbortController();
    const e = ui.editor("t", "p", { signal: ac.signal });
    const s = ui.select("t", ["a"], { signal: ac.signal });
    ac.abort();
    expect(await e).toBeUndefined();
    expect(await s).toBeUndefined();
    expect(frames.slice(2).map((f) => [f.id, f.method, f.targetId])).toEqual([
      ["id3", "cancel", "id1"],
      ["id4", "cancel", "id2"],
    ]);
    const count = frames.length;
    expect(await ui.confirm("t", "m", { signal: ac.signal })).toBe(false);
    expect(frames).toHaveLength(count);
  });

  it("cancelAll resolves every pending dialog with its default and sends nothing", async () => {
    const { ui, frames } = bridge();
    const all = Promise.all([ui.select("t", ["a"]), ui.confirm("t", "m"), ui.input("t"), ui.editor("t")]);
    ui.cancelAll();
    expect(await all).toEqual([undefined, false, undefined, undefined]);
    expect(frames).toHaveLength(4);
    expect(ui.pendingCount).toBe(0);
  });

  it("after cancelAll (stdin EOF) a new dialog resolves with its default and sends nothing", async () => {
    const { ui, frames } = bridge();
    ui.cancelAll();
    expect(await ui.confirm("t", "m")).toBe(false);
    expect(await ui.select("t", ["a"])).toBeUndefined();
    expect(frames).toHaveLength(0);
  });

  it("an answer written synchronously by the host during the request still settles it", async () => {
    const ui: ReturnType<typeof createRpcUiBridge> = createRpcUiBridge({
      writeFrame: (f) => ui.handleResponse({ id: (f as { id: string }).id, value: "now" }),
      newId: () => "x",
      emitTitle: false,
    });
    expect(await ui.select("t", ["now"])).toBe("now");
  });
});
