// From settings.json to the options of the reference's tools.
import type { ReferenceToolsOptions, Tool } from "../tools/index.js";
import type { Settings } from "./settings.js";

export function referenceToolsOptions(settings: Settings): ReferenceToolsOptions {
  return {
    python: { toolMode: settings.python.toolMode, interpreter: settings.python.interpreter },
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

/** python.toolMode "ipy-only" leaves bash out. */
export function applyPythonMode(tools: Tool[], settings: Settings): Tool[] {
  return settings.python.toolMode === "ipy-only" ? tools.filter((t) => t.name !== "bash") : tools;
}
