// Memory bounded by the work: a big payload (a 50 MiB tool result) goes through several transient
// copies — the stdin line it arrived on, each frame serialised for writing, the request body —
// each garbage as soon as it has been used. V8 sizes its heap for throughput and lets such
// garbage pile up to many times the payload before it collects. Code that has just dropped a
// big transient reports its size here; once GC_AFTER bytes are reported since the last
// collection, one full collection runs right away (a pause of a few milliseconds while the live
// heap is small), before the next big copy is made.
//
// The collector is reached by turning on V8's `expose-gc` flag at run time and reading `gc`
// from a fresh context; where that is refused, reports are ignored (V8 collects on its own).

/** Garbage (UTF-16 units or bytes) that triggers a collection. */
const GC_AFTER = 8 * 1024 * 1024;

let reported = 0;
let collector: (() => void) | null | undefined;

function loadCollector(): (() => void) | null {
  try {
    const v8 = process.getBuiltinModule("node:v8");
    const vm = process.getBuiltinModule("node:vm");
    v8.setFlagsFromString("--expose-gc");
    const gc: unknown = vm.runInNewContext("gc");
    return typeof gc === "function" ? (gc as () => void) : null;
  } catch (err) {
    void err; // no collector here: V8 collects on its own schedule
    return null;
  }
}

/** Reports `size` bytes of garbage just made (a written frame, a parsed line, a sent body). */
export function noteBigGarbage(size: number): void {
  reported += size;
  if (reported < GC_AFTER) return;
  reported = 0;
  collector ??= loadCollector();
  collector?.();
}
