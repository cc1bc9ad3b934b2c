// Runs discovery for several providers at once: fresh cache first, else the network.
// Failures are warnings; a provider that fails contributes nothing.
import { errorMessage } from "../../shared/errors.js";
import type { Model } from "../../shared/types.js";
import {
  cachePath,
  canDiscover,
  fetchModelList,
  readDiscoveryCache,
  writeDiscoveryCache,
  type DiscoveredModel,
} from "./discovery.js";

export interface DiscoverAllOptions {
  providers: { provider: string; template: Model | undefined }[];
  pithHome: string;
  fetch: typeof fetch;
  getApiKey(provider: string): Promise<string | undefined>;
  /** A fresh signal per provider (caller abort + timeout). */
  signalFor(): AbortSignal;
  /** True when the caller aborted (then failures are not worth a warning). */
  aborted(): boolean;
  now(): number;
  warn(msg: string): void;
}

async function fromCache(path: string, baseUrl: string, o: DiscoverAllOptions): Promise<DiscoveredModel[] | undefined> {
  try {
    return await readDiscoveryCache(path, baseUrl, o.now());
  } catch (err) {
    o.warn(`model discovery: ignoring unreadable cache ${path} (${errorMessage(err)})`);
    return undefined;
  }
}

async function discoverOne(provider: string, template: Model, o: DiscoverAllOptions): Promise<DiscoveredModel[] | undefined> {
  const path = cachePath(o.pithHome, provider);
  const cached = await fromCache(path, template.baseUrl, o);
  if (cached) return cached;
  try {
    const apiKey = await o.getApiKey(provider);
    const target = { provider, api: template.api, baseUrl: template.baseUrl, apiKey, headers: template.headers };
    const models = await fetchModelList(target, o.fetch, o.signalFor());
    await writeDiscoveryCache(path, template.baseUrl, models, o.now()).catch((err: unknown) =>
      o.warn(`model discovery: cannot write cache ${path} (${errorMessage(err)})`),
    );
    return models;
  } catch (err) {
    if (!o.aborted()) o.warn(`model discovery for provider "${provider}" failed: ${errorMessage(err)}`);
    return undefined;
  }
}

/** provider → discovered models, for every provider that answered. */
export async function discoverAll(o: DiscoverAllOptions): Promise<Map<string, DiscoveredModel[]>> {
  const out = new Map<string, DiscoveredModel[]>();
  await Promise.all(
    o.providers.map(async ({ provider, template }) => {
      if (!template || !canDiscover(template.api) || !template.baseUrl) return;
      const models = await discoverOne(provider, template, o);
      if (models) out.set(provider, models);
    }),
  );
  return out;
}
