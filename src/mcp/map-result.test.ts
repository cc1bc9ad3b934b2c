import { describe, expect, it } from "vitest";
import { errorText, mapToolResult } from "./map-result.js";

const opts = { server: "s", tool: "t", acceptsImages: true };
const PNG = "iVBORw0KGgo=";

describe("mapToolResult", () => {
  it("keeps text and images, with the server and tool in details", () => {
    expect(
      mapToolResult(
        {
          content: [
            { type: "text", text: "hello" },
            { type: "image", data: PNG, mimeType: "image/png" },
          ],
        },
        opts,
      ),
    ).toEqual({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      details: { server: "s", tool: "t" },
    });
  });

  it("maps embedded resources and resource links", () => {
    const r = mapToolResult(
      {
        content: [
          { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "notes" } },
          { type: "resource", resource: { uri: "file:///p.png", mimeType: "image/png", blob: PNG } },
          { type: "resource", resource: { uri: "file:///d.bin", mimeType: "application/octet-stream", blob: "AAEC" } },
          { type: "resource_link", uri: "file:///big.log", name: "big.log", description: "a large log" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
          { type: "hologram" },
        ],
      },
      opts,
    );
    expect(r.content).toEqual([
      { type: "text", text: "[resource file:///a.txt]\nnotes" },
      { type: "text", text: "[resource file:///p.png]" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "text", text: "[resource file:///d.bin: application/octet-stream, 3 bytes; binary content is not shown to the model]" },
      { type: "text", text: "[resource link] big.log: file:///big.log (a large log)" },
      { type: "text", text: "[audio: audio/wav, 3 bytes; binary content is not shown to the model]" },
      { type: "text", text: '[unsupported MCP content of type "hologram"]' },
    ]);
  });

  it("describes images instead of sending them to a model without image input", () => {
    const r = mapToolResult({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }, { ...opts, acceptsImages: false });
    expect(r.content).toEqual([{ type: "text", text: "[image: image/png, 8 bytes; the current model does not accept images]" }]);
  });

  it("uses structuredContent (or an old server's toolResult) when there are no content blocks", () => {
    expect(mapToolResult({ content: [], structuredContent: { answer: 42 } }, opts)).toEqual({
      content: [{ type: "text", text: '{\n  "answer": 42\n}' }],
      details: { server: "s", tool: "t", structuredContent: { answer: 42 } },
    });
    expect(mapToolResult({ toolResult: "old" }, opts).content).toEqual([{ type: "text", text: '"old"' }]);
    expect(mapToolResult({}, opts).content).toEqual([]);
  });
});

describe("errorText", () => {
  it("is the server's text, or says there was none", () => {
    expect(errorText({ isError: true, content: [{ type: "text", text: "no such repo" }, { type: "text", text: "try again" }] }, opts)).toBe("no such repo\ntry again");
    expect(errorText({ isError: true, content: [] }, opts)).toBe('MCP tool "t" on server "s" reported an error without a message');
  });
});
