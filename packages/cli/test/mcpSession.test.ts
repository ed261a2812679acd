import { fileURLToPath } from "node:url";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The MCP server the hub's own tests use: a real stdio server built with the MCP SDK. */
const stdioServer = fileURLToPath(new URL("../../core/test/mcp/stdioTestServer.mjs", import.meta.url));

async function runWithMcp(extra: string[]) {
  server = await startFakeLlm({
    script: {
      turns: [
        { tool_calls: [{ name: "mcp__demo__echo", arguments: { text: "hello", times: 2 } }] },
        { text: "The server echoed it." },
      ],
    },
  });
  const mcpConfig = JSON.stringify({
    mcpServers: { demo: { command: process.execPath, args: [stdioServer] } },
  });
  const ws = await makeWorkspace(
    { ".lathe/mcp.json": mcpConfig },
    { sandbox: { mode: "off" }, checkpoints: { enabled: false } },
  );
  const run = await runLathe(
    // The project's own MCP file takes effect only in a trusted folder.
    headlessArgs("Echo hello twice", { root: ws.root, serverUrl: server.url, format: "json" }, [
      "--trust",
      ...extra,
    ]),
    { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
  );
  const chat = server.requests.map(
    (request) =>
      request.body as { tools: { function: { name: string; parameters: unknown } }[]; messages: unknown[] },
  );
  return { run, chat };
}

describe("MCP servers in a session", () => {
  it("offers the server's tools with its schema and runs them when a rule allows", async () => {
    const { run, chat } = await runWithMcp(["--allow", "mcp__demo__*"]);
    expect(run.code).toBe(0);
    const echo = chat[0]!.tools.find((tool) => tool.function.name === "mcp__demo__echo");
    expect(echo?.function.parameters).toMatchObject({
      properties: { text: { type: "string" }, times: { type: "integer" } },
    });
    expect(JSON.stringify(chat[1]!.messages)).toContain("hello hello");
  });

  it("treats an MCP tool nobody allowed as high risk: a headless run cannot approve it", async () => {
    const { run, chat } = await runWithMcp([]);
    // Its only call refused, the run ends denied with no way forward.
    expect(run.code).toBe(5);
    const second = JSON.stringify(chat[1]!.messages);
    expect(second).toContain("E_USER_REJECTED");
    expect(second).not.toContain("hello hello");
  });
});
