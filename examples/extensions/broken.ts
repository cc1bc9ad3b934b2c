/**
 * broken: fails while loading, on purpose. pith reports
 * `Failed to load extension: broken extension: fails at load time on purpose`
 * through the loader's onError (event "load") and goes on loading the other extensions.
 */
import type { ExtensionAPI } from "../../src/extensions/types.js";

function fail(): never {
  throw new Error("broken extension: fails at load time on purpose");
}

fail();

export default function broken(_pi: ExtensionAPI) {}
