import { describe, expect, it } from "vitest";
import { parseMentions } from "../../../src/context/mentions/parseMentions.js";

describe("parseMentions: MCP resources", () => {
  it("reads @server:uri as an mcp mention kept only if the server exists, and @mcp server:uri as a plain one", () => {
    const text = "See @docs:notes://readme, then @mcp docs:notes://logo and @src/a.ts.";
    expect(
      parseMentions(text).map(({ kind, argument, raw, bare }) => ({ kind, argument, raw, bare })),
    ).toEqual([
      { kind: "mcp", argument: "docs:notes://readme", raw: "@docs:notes://readme", bare: true },
      { kind: "mcp", argument: "docs:notes://logo", raw: "@mcp docs:notes://logo", bare: undefined },
      { kind: "file", argument: "src/a.ts", raw: "@src/a.ts", bare: true },
    ]);
  });

  it("leaves a colon with nothing after it, and a path with a line number, alone", () => {
    expect(parseMentions("@alice: hi").map((mention) => mention.kind)).toEqual([]);
    expect(parseMentions("@src/a.ts:12").map((mention) => [mention.kind, mention.argument])).toEqual([
      ["file", "src/a.ts:12"],
    ]);
  });
});
