import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { McpServerConfig, StdioServerConfig } from "../../src/mcp/index.js";

/** The stdio MCP server of these tests, run with the Node that runs the tests. */
export const stdioServerScript = path.join(import.meta.dirname, "stdioTestServer.mjs");

export interface McpTestBed {
  /** Real path of a fresh project directory. */
  projectRoot: string;
  latheHome: string;
  /** Writes a file under the project or `$LATHE_HOME`, creating its folders. */
  write(file: string, contents: unknown): string;
  cleanup(): void;
}

export function createMcpTestBed(): McpTestBed {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-mcp-")));
  const projectRoot = path.join(base, "project");
  const latheHome = path.join(base, "home");
  mkdirSync(projectRoot);
  mkdirSync(latheHome);
  return {
    projectRoot,
    latheHome,
    write: (file, contents) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, typeof contents === "string" ? contents : JSON.stringify(contents));
      return file;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** A configuration of the test's stdio server, as the config loader would produce it. */
export function stdioServer(name: string, options: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    name,
    source: "test",
    transport: "stdio",
    command: process.execPath,
    args: [stdioServerScript],
    env: {},
    cwd: import.meta.dirname,
    ...options,
  };
}

/** A stdio "server" that is just a Node one-liner, for servers that misbehave at start. */
export function nodeOneLiner(name: string, program: string, ...args: string[]): McpServerConfig {
  return stdioServer(name, { args: ["-e", program, ...args] });
}

export function httpServer(name: string, url: string, headers: Record<string, string> = {}): McpServerConfig {
  return { name, source: "test", transport: "http", url, headers };
}
