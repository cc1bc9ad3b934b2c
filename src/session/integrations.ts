// `get_integrations` (without the reference's product service): the model provider's health and
// the extensions' status checks (`pi.registerServiceStatus`), all run at once and each bounded by a
// timeout. It is a control command, so it never holds up others. The front door adds its own
// version to the answer.
import type { Integrations } from "../protocol/index.js";
import type { ExtensionRunner } from "../extensions/index.js";
import type { SessionModels } from "./session-models.js";

/** How long the provider and each status check may take. */
export const INTEGRATIONS_TIMEOUT_MS = 5000;

type Service = Integrations["services"][number];

export async function checkIntegrations(
  models: SessionModels,
  runner: ExtensionRunner | undefined,
  timeoutMs = INTEGRATIONS_TIMEOUT_MS,
): Promise<Omit<Integrations, "version">> {
  const contributions = runner?.serviceStatuses() ?? [];
  const [model, ...services] = await Promise.all([
    models.checkProvider({ timeoutMs }),
    ...contributions.map(async (c): Promise<Service> => {
      const plugin = { name: c.name, _isPlugin: true as const, ...(c.group !== undefined ? { _group: c.group } : {}) };
      try {
        const status = await withTimeout(Promise.resolve(c.check()), timeoutMs);
        if (!status) return { ...plugin, state: "unavailable", hint: `no answer within ${timeoutMs} ms` };
        const state = status.state === "connected" || status.state === "unauthenticated" ? status.state : "unavailable";
        return { ...plugin, state, ...(typeof status.hint === "string" ? { hint: status.hint } : {}) };
      } catch {
        return { ...plugin, state: "unavailable", hint: "check failed" };
      }
    }),
  ]);
  return { model, services };
}

/** The value, or undefined when it took longer than `ms`. */
async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
