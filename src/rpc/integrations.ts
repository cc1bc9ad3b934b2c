// `get_integrations` (spec/protocol.md §3.11 without the reference's product service): the model
// provider's health and extension-contributed status checks, each bounded by a timeout. It runs
// as a control command, so it never holds up other commands.
import type { Integrations } from "../protocol/index.js";
import type { AgentSession } from "../session/index.js";

/** How long the provider may take to list its models. */
export const INTEGRATIONS_TIMEOUT_MS = 5000;

export async function checkIntegrations(session: AgentSession, version: string, timeoutMs = INTEGRATIONS_TIMEOUT_MS): Promise<Integrations> {
  const model = await session.models.checkProvider({ timeoutMs });
  return { version, model, services: [] };
}
