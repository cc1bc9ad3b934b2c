// A child AbortController that follows a parent signal and can be detached again, so that
// per-turn and per-batch controllers do not pile listeners onto the run's signal.

export interface LinkedAbort {
  controller: AbortController;
  signal: AbortSignal;
  /** Stops following the parent. Call once the child is no longer needed. */
  dispose(): void;
}

export function linkedAbort(parent: AbortSignal): LinkedAbort {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", onAbort, { once: true });
  return {
    controller,
    signal: controller.signal,
    dispose: () => parent.removeEventListener("abort", onAbort),
  };
}

/** A signal that never fires: what non-abortable tools receive (fresh, so listeners do not pile up). */
export function neverAbortedSignal(): AbortSignal {
  return new AbortController().signal;
}
