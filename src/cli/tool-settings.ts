// From settings.json to the options of the reference's tools (issue 24).
import type { ReferenceToolsOptions } from "../tools/index.js";
import type { Settings } from "./settings.js";

export function referenceToolsOptions(settings: Settings): ReferenceToolsOptions {
  return {
    switches: {
      astGrep: settings.astGrep.enabled,
      astEdit: settings.astEdit.enabled,
      notebook: settings.notebook.enabled,
      calc: settings.calc.enabled,
      renderMermaid: settings.renderMermaid.enabled,
      inspectImage: settings.inspect_image.enabled,
    },
  };
}
