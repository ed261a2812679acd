import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("an MCP server that fails to start, in a headless run", () => {
  it("is reported as a system/notice line with E_MCP_START, and the run still completes", async () => {
    server = await startFakeLlm({
      script: {
        turns: [{ tool_calls: [{ name: "read_file", arguments: { path: "README.md" } }] }, { text: "done" }],
      },
    });
    const ws = await makeWorkspace({ "README.md": "# A project\n" });
    writeFileSync(
      join(ws.home, "mcp.json"),
      JSON.stringify({ mcpServers: { broken: { command: join(ws.root, "no-such-server") } } }),
    );
    const run = await runLathe(
      headlessArgs("read the readme", { root: ws.root, serverUrl: server.url, format: "stream-json" }),
      { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const notices = lines.filter((line) => line.type === "system" && line.subtype === "notice");
    expect(notices).toEqual([
      expect.objectContaining({
        code: "E_MCP_START",
        message: expect.stringMatching(/^MCP server broken did not start: /),
      }),
    ]);
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success" });
  });
});
