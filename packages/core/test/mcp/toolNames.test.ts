import { describe, expect, it } from "vitest";
import { mcpToolName } from "../../src/mcp/index.js";

describe("mcpToolName", () => {
  it("names tools mcp__<server>__<tool> in the characters providers accept", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my server", "files.read-v2")).toBe("mcp__my_server__files_read-v2");
  });

  it("keeps long names within 64 characters, distinct, and under their server's prefix", () => {
    const long = "a_tool_with_a_really_long_name_that_goes_on_and_on";
    const first = mcpToolName("documentation", `${long}_one`);
    const second = mcpToolName("documentation", `${long}_two`);
    for (const name of [first, second]) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(/^mcp__documentation__[A-Za-z0-9_-]+$/);
    }
    expect(first).not.toBe(second);
  });
});
