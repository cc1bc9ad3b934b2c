// A model selector as users and hosts write it: "provider/id", or a bare id. The provider is
// everything before the FIRST slash, so ids that contain slashes (openrouter's "vendor/model",
// a scripted model's script path) stay whole. A leading slash names no provider.

export interface ModelSelector {
  /** Absent for a bare id (searched across providers). */
  provider?: string;
  id: string;
}

/** Splits a selector at its first slash; with no slash, or a slash first, it is a bare id. */
export function parseModelSelector(selector: string): ModelSelector {
  const slash = selector.indexOf("/");
  if (slash <= 0) return { id: selector };
  return { provider: selector.slice(0, slash), id: selector.slice(slash + 1) };
}
