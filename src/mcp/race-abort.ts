// Abort helpers of the MCP layer. `raceAbort` (shared with the language-server layer):
// waiting for something that may take long while staying abortable (the caller stops waiting at
// once; the work goes on, bounded elsewhere). `followSignal`: a per-call child signal, because the SDK leaves its abort listener on the
// signal it is given; the caller's signal (shared by a batch of calls) keeps none of them.
export { raceAbort } from "../shared/abort.js";

/** A fresh signal that fires when `parent` does, until `dispose()` detaches it. */
export function followSignal(parent: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const child = new AbortController();
  if (parent.aborted) child.abort(parent.reason);
  const onAbort = () => child.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { signal: child.signal, dispose: () => parent.removeEventListener("abort", onAbort) };
}
