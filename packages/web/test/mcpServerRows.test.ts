import type { McpServerList, McpServerStatusList } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { mcpServerRows } from "../src/panels/mcpServerRows.js";

const configured: McpServerList = {
  servers: [
    {
      name: "docs",
      transport: "stdio",
      target: "node docs.js",
      source: "/p/.lathe/mcp.json",
      removable: false,
    },
    {
      name: "broken",
      transport: "stdio",
      target: "node broken.js",
      source: "/p/.lathe/mcp.json",
      removable: false,
    },
  ],
};

const probed: McpServerStatusList = {
  servers: [
    {
      name: "docs",
      transport: "stdio",
      state: "running",
      tools: [{ name: "search" }],
      resources: [{ uri: "docs://index", name: "index" }],
      prompts: [{ name: "review", arguments: [] }],
    },
    {
      name: "broken",
      transport: "stdio",
      state: "failed",
      error: "MCP error -32000: Connection closed\nstderr: cannot open the widget database",
      tools: [{ name: "stale" }],
      resources: [],
      prompts: [],
    },
  ],
};

describe("mcpServerRows", () => {
  it("shows a failed server as an error with its start error and nothing offered", () => {
    const [docs, broken] = mcpServerRows(configured, { checking: false, reply: probed });
    expect(docs).toMatchObject({ state: "running", tone: "ok", error: undefined });
    expect(docs?.tools.map((tool) => tool.name)).toEqual(["search"]);
    expect(docs?.resources.map((resource) => resource.uri)).toEqual(["docs://index"]);
    expect(docs?.prompts.map((prompt) => prompt.name)).toEqual(["review"]);
    expect(broken).toMatchObject({
      state: "failed",
      tone: "error",
      error: "MCP error -32000: Connection closed\nstderr: cannot open the widget database",
      tools: [],
    });
  });

  it("never calls a server running before the probe said so", () => {
    expect(mcpServerRows(configured, { checking: true }).map((row) => [row.state, row.tone])).toEqual([
      ["checking", "busy"],
      ["checking", "busy"],
    ]);
    const failedProbe = mcpServerRows(configured, { checking: false, error: "E_STORAGE: unreadable" });
    expect(failedProbe.map((row) => [row.state, row.tone, row.error])).toEqual([
      ["not started", "idle", "E_STORAGE: unreadable"],
      ["not started", "idle", "E_STORAGE: unreadable"],
    ]);
  });
});
