// `cacheRetention` (settings.json) and PITH_CACHE_RETENTION: how long providers keep the prompt
// prefix cached. The variable, when set, wins over the settings files; the default is "short".
import type { CacheRetention } from "../providers/types.js";
import { PithError } from "../shared/errors.js";

export const CACHE_RETENTIONS: readonly CacheRetention[] = ["none", "short", "long"];

const isRetention = (v: string): v is CacheRetention => (CACHE_RETENTIONS as readonly string[]).includes(v);

export function resolveCacheRetention(fromSettings: CacheRetention | undefined, env: Record<string, string | undefined>): CacheRetention {
  const raw = env.PITH_CACHE_RETENTION?.trim();
  if (raw) {
    const value = raw.toLowerCase();
    if (!isRetention(value)) throw new PithError("config", `Invalid PITH_CACHE_RETENTION "${raw}": expected one of ${CACHE_RETENTIONS.join(", ")}`);
    return value;
  }
  return fromSettings ?? "short";
}
