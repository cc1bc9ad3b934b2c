import { describe, expect, it } from "vitest";
import { runTool } from "../run-tool.js";
import { makeCtx, textOf } from "../../../test/support/tools.js";
import { createRenderMermaidTool, MAX_MERMAID_CHARS } from "./index.js";

const tool = createRenderMermaidTool();
const render = (args: Record<string, unknown>) => runTool(tool, args, makeCtx("/"));

describe("render_mermaid", () => {
  it("renders a flowchart to box-drawing text, or to ASCII with useAscii", async () => {
    const out = await render({ mermaid: "graph LR\n  A --> B" });
    expect(out.isError).toBe(false);
    expect(textOf(out.result)).toContain("│ A ├────►│ B │");
    const ascii = textOf((await render({ mermaid: "graph LR\n  A --> B", config: { useAscii: true, paddingX: 2.7 } })).result);
    expect(ascii).toMatch(/\| A \|-*>\| B \|/);
    expect(ascii).not.toContain("\u001b[");
  });

  it("says why a diagram cannot be rendered", async () => {
    const bad = await render({ mermaid: "not a diagram" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad.result)).toMatch(/^Failed to render the Mermaid diagram — .*\(Invalid mermaid header/);
    const big = await render({ mermaid: "graph LR\n" + "  A --> B\n".repeat(MAX_MERMAID_CHARS / 5) });
    expect(textOf(big.result)).toBe("Mermaid diagram is too large to render safely. Reduce the number of nodes/edges and try again.");
  });
});
