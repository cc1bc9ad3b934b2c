// `render_mermaid`: Mermaid source to an ASCII/Unicode diagram (beautiful-mermaid, loaded on first use).
import { Type, type Static } from "typebox";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";

const DESCRIPTION = `Convert Mermaid graph source into ASCII diagram output.

Parameters:
- \`mermaid\` (required): Mermaid graph text to render (flowchart/graph, sequenceDiagram, stateDiagram-v2, classDiagram, erDiagram). Put spaces around arrows (A --> B).
- \`config\` (optional): JSON render configuration (spacing and layout options).
Behavior:
- Returns ASCII diagram text.
- Returns an error when the Mermaid input is invalid or rendering fails.`;

/** Larger sources are refused rather than laid out (layout cost grows fast with the graph). */
export const MAX_MERMAID_CHARS = 20_000;

const Params = Type.Object({
  mermaid: Type.String({ description: "Mermaid graph source text" }),
  config: Type.Optional(
    Type.Object({
      useAscii: Type.Optional(Type.Boolean()),
      paddingX: Type.Optional(Type.Number()),
      paddingY: Type.Optional(Type.Number()),
      boxBorderPadding: Type.Optional(Type.Number()),
    }),
  ),
});
export type RenderMermaidArgs = Static<typeof Params>;

const count = (n: number | undefined): number | undefined => (n === undefined ? undefined : Math.max(0, Math.floor(n)));

export function createRenderMermaidTool(): Tool<RenderMermaidArgs> {
  return {
    name: "render_mermaid",
    summary: "Mermaid source to an ASCII diagram",
    label: "RenderMermaid",
    description: DESCRIPTION,
    parameters: jsonSchema(Params),
    // lays the diagram out in pith's process and returns text: touches nothing
    effect: "read-only",
    concurrency: "shared",
    source: "builtin",
    async execute(args) {
      if (args.mermaid.length > MAX_MERMAID_CHARS) {
        throw new Error("Mermaid diagram is too large to render safely. Reduce the number of nodes/edges and try again.");
      }
      const { renderMermaidASCII } = await import("beautiful-mermaid");
      const c = args.config ?? {};
      let ascii: string | undefined;
      let reason = "";
      try {
        ascii = renderMermaidASCII(args.mermaid, {
          colorMode: "none",
          useAscii: c.useAscii,
          paddingX: count(c.paddingX),
          paddingY: count(c.paddingY),
          boxBorderPadding: count(c.boxBorderPadding),
        });
      } catch (err) {
        reason = ` (${(err as Error).message})`;
      }
      if (!ascii || ascii.trim() === "") {
        throw new Error(
          `Failed to render the Mermaid diagram — the syntax may be unsupported or too complex. Use newline-separated statements (no ';') and try a simpler diagram.${reason}`,
        );
      }
      return { content: [{ type: "text", text: ascii }], details: {} };
    },
  };
}
