import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

/** The MCP server the hub's own tests use: a real stdio server built with the MCP SDK. */
const stdioServer = fileURLToPath(new URL("../../core/test/mcp/stdioTestServer.mjs", import.meta.url));

async function mcp(ws: { root: string; home: string }, args: string[]) {
  // Before the arguments: after `--` it would be part of a server's command line.
  return runLathe(["mcp", "--cwd", ws.root, ...args], { home: ws.home });
}

/** `${env:NAME}` as an MCP file writes it. */
const envRef = (name: string) => ["$", "{env:", name, "}"].join("");

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe("lathe mcp add and remove", () => {
  it("adds stdio and HTTP servers to the user's file and removes one, keeping the rest", async () => {
    const ws = await makeWorkspace();
    const file = join(ws.home, "mcp.json");
    writeFileSync(file, JSON.stringify({ other: true, mcpServers: {} }));
    const stdio = await mcp(ws, [
      "add",
      "demo",
      "--env",
      "LEVEL=2",
      "--",
      process.execPath,
      stdioServer,
      "--verbose",
    ]);
    expect(stdio.code).toBe(0);
    expect(stdio.stdout).toBe(`Added MCP server demo to ${file}\n`);
    const http = await mcp(ws, [
      "add",
      "docs",
      "--url",
      "https://mcp.invalid/mcp",
      "--header",
      `Authorization: Bearer ${envRef("DOCS_TOKEN")}`,
      "--json",
    ]);
    expect(JSON.parse(http.stdout)).toEqual({ added: "docs", scope: "user", file });
    expect(readJson(file)).toEqual({
      other: true,
      mcpServers: {
        demo: { command: process.execPath, args: [stdioServer, "--verbose"], env: { LEVEL: "2" } },
        docs: {
          url: "https://mcp.invalid/mcp",
          headers: { Authorization: `Bearer ${envRef("DOCS_TOKEN")}` },
        },
      },
    });
    const removed = await mcp(ws, ["remove", "docs"]);
    expect(removed.stdout).toBe(`Removed MCP server docs from ${file}\n`);
    expect(Object.keys(readJson(file).mcpServers)).toEqual(["demo"]);
    const gone = await mcp(ws, ["remove", "docs"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe(`lathe mcp: E_INVALID_ARGS: no server "docs" in ${file}\n`);
  });

  it.each([
    { args: ["add", "x"], message: "add needs either -- COMMAND [ARGS…] (stdio) or --url URL (HTTP)" },
    {
      args: ["add", "x", "--url", "ftp://host/x"],
      message: 'E_INVALID_ARGS: x: url "ftp://host/x" is not an http(s) URL',
    },
    {
      args: ["add", "x", "--url", "https://h/x", "--header", "nocolon"],
      message: "--header takes KEY:VALUE",
    },
    {
      args: ["add", "x", "--scope", "project-local", "--", "node"],
      message: 'E_INVALID_ARGS: unknown scope "project-local"',
    },
    { args: ["add", "demo", "--", "node"], message: 'a server "demo" is already in' },
    { args: ["remove"], message: "remove needs exactly one server NAME" },
    { args: ["list", "--url", "https://h"], message: "--url only goes with add or remove" },
    { args: ["launch"], message: 'unknown command "launch"' },
    { args: [], message: "no command given" },
  ])("refuses $args with exit 2 and writes nothing", async ({ args, message }) => {
    const ws = await makeWorkspace();
    const file = join(ws.home, "mcp.json");
    const before = JSON.stringify({ mcpServers: { demo: { command: "node" } } });
    writeFileSync(file, before);
    const run = await mcp(ws, args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(existsSync(join(ws.root, ".lathe"))).toBe(false);
  });
});

describe("lathe mcp list and tools", () => {
  async function layered() {
    const ws = await makeWorkspace({
      ".lathe/mcp.json": JSON.stringify({ mcpServers: { project: { command: "node", args: ["p.js"] } } }),
    });
    writeFileSync(
      join(ws.home, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          demo: { command: process.execPath, args: [stdioServer] },
          broken: { command: join(ws.root, "no-such-server") },
          keyed: {
            url: "https://mcp.invalid/mcp",
            headers: { Authorization: `Bearer ${envRef("LATHE_TEST_UNSET_TOKEN")}` },
          },
          wrong: { command: "a", url: "https://b" },
        },
      }),
    );
    return ws;
  }

  it("lists the servers of every layer with their state; project servers wait for trust", async () => {
    const ws = await layered();
    const user = join(ws.home, "mcp.json");
    const run = await mcp(ws, ["list", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).servers).toEqual([
      {
        name: "demo",
        file: user,
        scope: "user",
        transport: "stdio",
        target: `${process.execPath} ${stdioServer}`,
        state: "configured",
      },
      {
        name: "broken",
        file: user,
        scope: "user",
        transport: "stdio",
        target: join(ws.root, "no-such-server"),
        state: "configured",
      },
      {
        name: "keyed",
        file: user,
        scope: "user",
        transport: "http",
        target: "https://mcp.invalid/mcp",
        state: "invalid",
        error: `uses ${envRef("LATHE_TEST_UNSET_TOKEN")}, which is not set`,
      },
      {
        name: "wrong",
        file: user,
        scope: "user",
        state: "invalid",
        error: 'has both "command" and "url"; keep one',
      },
      {
        name: "project",
        file: join(ws.root, ".lathe", "mcp.json"),
        scope: "project",
        transport: "stdio",
        target: "node p.js",
        state: "untrusted",
        error: "the folder is not trusted (lathe trust)",
      },
    ]);
  });

  it("starts the servers on --status: running with its tools, failed with the error", async () => {
    const ws = await layered();
    const run = await mcp(ws, ["list", "--status", "--json"]);
    const servers = JSON.parse(run.stdout).servers as {
      name: string;
      state: string;
      error?: string;
      tools?: { name: string }[];
    }[];
    const demo = servers.find((server) => server.name === "demo");
    expect(demo?.state).toBe("running");
    expect(demo?.tools?.map((tool) => tool.name)).toContain("mcp__demo__echo");
    expect(servers.find((server) => server.name === "broken")).toMatchObject({
      state: "failed",
      error: expect.stringContaining("ENOENT"),
    });
    expect(servers.find((server) => server.name === "project")?.state).toBe("untrusted");
  });

  it("lists one server's tools with their descriptions; an unknown server is misuse", async () => {
    const ws = await layered();
    const run = await mcp(ws, ["tools", "demo"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^demo: \d+ tools$/);
    expect(lines).toContain("  mcp__demo__echo         Echoes the text back.");
    expect(lines).toContain("  mcp__demo__fail         Always reports an error.");
    const json = JSON.parse((await mcp(ws, ["tools", "demo", "--json"])).stdout);
    expect(json.servers[0].tools[0]).toEqual({
      name: "mcp__demo__echo",
      description: "Echoes the text back.",
    });
    const failed = await mcp(ws, ["tools", "broken"]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("broken: failed: ");
    const untrusted = await mcp(ws, ["tools", "project"]);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain(
      'E_INVALID_ARGS: server "project" is untrusted: the folder is not trusted',
    );
    const unknown = await mcp(ws, ["tools", "nothere"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('E_INVALID_ARGS: server "nothere" is not configured');
  });

  it("adds to the project's .lathe/mcp.json with --scope project, which a trusted folder's session then starts", async () => {
    const ws = await makeWorkspace();
    mkdirSync(join(ws.root, ".lathe"));
    const add = await mcp(ws, ["add", "local", "--scope", "project", "--", process.execPath, stdioServer]);
    expect(add.code).toBe(0);
    expect(readJson(join(ws.root, ".lathe", "mcp.json"))).toEqual({
      mcpServers: { local: { command: process.execPath, args: [stdioServer] } },
    });
    // The folder needed no trust before the user's own write, so it stays trusted after it.
    const list = await mcp(ws, ["list", "--status", "--json"]);
    expect(JSON.parse(list.stdout).servers[0]).toMatchObject({ name: "local", state: "running" });
    const remove = await mcp(ws, ["remove", "local"]);
    expect(remove.stderr).toBe("");
    expect(remove.stdout).toBe(`Removed MCP server local from ${join(ws.root, ".lathe", "mcp.json")}\n`);
  });
});
