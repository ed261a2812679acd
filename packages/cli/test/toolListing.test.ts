import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

const stdioServer = fileURLToPath(new URL("../../core/test/mcp/stdioTestServer.mjs", import.meta.url));

async function withMcpServer() {
  const ws = await makeWorkspace();
  writeFileSync(
    join(ws.home, "mcp.json"),
    JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [stdioServer] } } }),
  );
  return ws;
}

/** The lines of one group of a tool listing, up to the next heading. */
function group(text: string, heading: string): string[] {
  const lines = text.split("\n");
  const start = lines.indexOf(heading);
  const end = lines.findIndex((line, index) => index > start && /^\S/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).filter(Boolean);
}

describe.each([
  { command: ["tool", "--help"], title: "Tools (lathe tool <name> --help for one):" },
  { command: ["policy", "--help"], title: "Tools (check --tool NAME):" },
])("$command lists the session's tools", ({ command, title }) => {
  it("in groups: built-in, web, and the MCP servers' tools by their mcp__ names", async () => {
    const ws = await withMcpServer();
    const run = await runLathe([...command, "--cwd", ws.root], { home: ws.home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${title}\nBuilt-in tools:\n`);
    expect(group(run.stdout, "Web tools:").map((line) => line.trim().split(/\s+/)[0])).toEqual([
      "web_search",
      "web_fetch",
      "browser_use",
      "generate_image",
    ]);
    const mcp = group(run.stdout, "MCP tools (mcp__<server>__<tool>):");
    expect(mcp).toContain("  mcp__demo__echo         Echoes the text back.");
    expect(mcp).toContain("  mcp__demo__fail         Always reports an error.");
    expect(mcp.every((line) => line.startsWith("  mcp__demo__"))).toBe(true);
  });
});

describe("lathe policy rules", () => {
  it("knows the web tools: a rule naming one draws no unknown-tool note", async () => {
    const ws = await makeWorkspace(
      {},
      { permissions: { allow: ["web_fetch(domain:docs.invalid)"], deny: ["Shell(rm *)"] } },
    );
    const run = await runLathe(["policy", "rules", "--cwd", ws.root], { home: ws.home });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'lathe policy: note: no built-in tool is named "Shell"; its rules only apply to a tool of that exact name\n',
    );
  });
});
