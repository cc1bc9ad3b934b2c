// Public surface of the model layer.
export { createModelRegistry, type ModelRegistry, type ModelRegistryOptions } from "./registry.js";
export { PROVIDER_DEFAULTS, type DefaultModelSettings } from "./default-model.js";
export { envVarsFor, PROVIDER_ENV_VARS } from "./env-keys.js";
export { cycleThinkingLevel, resolveThinkingLevel, supportedEfforts } from "./thinking.js";
export { nextModel, sameModel } from "./model-cycle.js";
export { SUPPORTED_APIS } from "./models-json.js";
export type { ScopedModelRegistry } from "./runtime-providers.js";
