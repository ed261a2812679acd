// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` here are MCP config variables, not templates
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMcpConfig, parseMcpConfig } from "../../src/mcp/index.js";
import { createMcpTestBed, type McpTestBed } from "./mcpTestBed.js";

const variables = {
  workspaceFolder: "/work/project",
  env: { GITHUB_TOKEN: "ghp_123", HOST: "mcp.example.com", EMPTY: "" },
};

describe("parseMcpConfig", () => {
  it("reads stdio and HTTP entries, expanding ${env:X} and ${workspaceFolder}", () => {
    const loaded = parseMcpConfig(
      {
        mcpServers: {
          github: {
            command: "npx",
            args: ["-y", "server-github", "--root", "${workspaceFolder}"],
            env: { GITHUB_TOKEN: "${env:GITHUB_TOKEN}", FLAG: "${env:EMPTY}" },
            cwd: "tools",
            type: "stdio",
          },
          docs: {
            url: "https://${env:HOST}/mcp",
            headers: { Authorization: "Bearer ${env:GITHUB_TOKEN}", "X-Raw": "${userHome}" },
          },
        },
      },
      "/work/project/.lathe/mcp.json",
      variables,
    );
    expect(loaded.errors).toEqual([]);
    expect(loaded.servers).toEqual([
      {
        name: "github",
        source: "/work/project/.lathe/mcp.json",
        transport: "stdio",
        command: "npx",
        args: ["-y", "server-github", "--root", "/work/project"],
        env: { GITHUB_TOKEN: "ghp_123", FLAG: "" },
        cwd: "/work/project/tools",
      },
      {
        name: "docs",
        source: "/work/project/.lathe/mcp.json",
        transport: "http",
        url: "https://mcp.example.com/mcp",
        // Variables Lathe does not know are left for the server.
        headers: { Authorization: "Bearer ghp_123", "X-Raw": "${userHome}" },
      },
    ]);
  });

  it("runs stdio servers in the project unless told otherwise", () => {
    const loaded = parseMcpConfig({ mcpServers: { local: { command: "./server.sh" } } }, "f.json", variables);
    expect(loaded.servers[0]).toMatchObject({ args: [], env: {}, cwd: "/work/project" });
  });

  it("reports each bad entry with its file and name, and still loads the good ones", () => {
    const loaded = parseMcpConfig(
      {
        mcpServers: {
          nothing: { args: ["x"] },
          both: { command: "x", url: "https://example.com" },
          numeric: { command: "x", args: ["ok", 5] },
          ftp: { url: "ftp://example.com/mcp" },
          unset: { command: "x", env: { TOKEN: "${env:NOT_SET}" }, args: ["${env:ALSO_NOT_SET}"] },
          scalar: "npx server",
          good: { command: "good-server" },
        },
      },
      "/p/.cursor/mcp.json",
      variables,
    );
    expect(loaded.servers.map((server) => server.name)).toEqual(["good"]);
    expect(loaded.errors).toEqual([
      {
        file: "/p/.cursor/mcp.json",
        server: "nothing",
        message: 'has neither "command" (stdio) nor "url" (streamable HTTP)',
      },
      { file: "/p/.cursor/mcp.json", server: "both", message: 'has both "command" and "url"; keep one' },
      {
        file: "/p/.cursor/mcp.json",
        server: "numeric",
        message: expect.stringContaining("args[1]: "),
      },
      {
        file: "/p/.cursor/mcp.json",
        server: "ftp",
        message: 'url "ftp://example.com/mcp" is not an http(s) URL',
      },
      {
        file: "/p/.cursor/mcp.json",
        server: "unset",
        message: "uses ${env:ALSO_NOT_SET}, ${env:NOT_SET}, which are not set",
      },
      {
        file: "/p/.cursor/mcp.json",
        server: "scalar",
        message: 'expected an object with "command" (stdio) or "url" (streamable HTTP)',
      },
    ]);
  });

  it("reports a file without mcpServers as a whole", () => {
    const loaded = parseMcpConfig({ servers: {} }, "/p/mcp.json", variables);
    expect(loaded.servers).toEqual([]);
    expect(loaded.errors).toEqual([
      { file: "/p/mcp.json", message: expect.stringContaining('expected { "mcpServers"') },
    ]);
  });
});

describe("loadMcpConfig", () => {
  let bed: McpTestBed;
  beforeEach(() => {
    bed = createMcpTestBed();
  });
  afterEach(() => bed.cleanup());

  const load = (env: Record<string, string> = {}) =>
    loadMcpConfig({ projectRoot: bed.projectRoot, latheHome: bed.latheHome, env });

  it("lets the project override the user, and .lathe override .cursor, by server name", () => {
    const user = bed.write(path.join(bed.latheHome, "mcp.json"), {
      mcpServers: { shared: { command: "user-shared" }, mine: { command: "user-only" } },
    });
    const cursor = bed.write(path.join(bed.projectRoot, ".cursor", "mcp.json"), {
      mcpServers: { shared: { command: "cursor-shared" }, editor: { url: "http://localhost:3000/mcp" } },
    });
    const lathe = bed.write(path.join(bed.projectRoot, ".lathe", "mcp.json"), {
      mcpServers: { editor: { url: "http://localhost:4000/mcp" } },
    });

    const loaded = load();
    expect(loaded.errors).toEqual([]);
    const byName = Object.fromEntries(loaded.servers.map((server) => [server.name, server]));
    expect(Object.keys(byName).sort()).toEqual(["editor", "mine", "shared"]);
    expect(byName.mine).toMatchObject({ command: "user-only", source: user });
    expect(byName.shared).toMatchObject({ command: "cursor-shared", source: cursor });
    expect(byName.editor).toMatchObject({ url: "http://localhost:4000/mcp", source: lathe });
  });

  it("keeps the earlier definition when the later one is broken, and reports unreadable files", () => {
    bed.write(path.join(bed.latheHome, "mcp.json"), { mcpServers: { tool: { command: "user-tool" } } });
    const cursor = bed.write(path.join(bed.projectRoot, ".cursor", "mcp.json"), "{ not json");
    const lathe = bed.write(path.join(bed.projectRoot, ".lathe", "mcp.json"), {
      mcpServers: { tool: { command: "x", env: { KEY: "${env:API_KEY}" } } },
    });

    const loaded = load();
    expect(loaded.servers).toMatchObject([{ name: "tool", command: "user-tool" }]);
    expect(loaded.errors).toEqual([
      { file: cursor, message: expect.stringMatching(/^not JSON/) },
      { file: lathe, server: "tool", message: "uses ${env:API_KEY}, which is not set" },
    ]);

    expect(load({ API_KEY: "k" }).servers).toMatchObject([{ name: "tool", env: { KEY: "k" } }]);
  });

  it("is empty without any file", () => {
    expect(load()).toEqual({ servers: [], errors: [] });
  });
});
