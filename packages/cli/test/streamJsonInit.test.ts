import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The system/init line of a stream-json run, and the tool names the model's first request offered. */
async function init(extra: string[]) {
  server = await startFakeLlm({ script: { turns: [{ text: "ok" }] } });
  const ws = await makeWorkspace();
  const run = await runLathe(
    headlessArgs("hi", { root: ws.root, serverUrl: server.url, format: "stream-json" }, extra),
    { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
  );
  expect(run.code).toBe(0);
  const first = JSON.parse(run.stdout.split("\n")[0]!);
  const body = server.requests[0]!.body as { tools: { function: { name: string } }[] };
  return { first, offered: body.tools.map((tool) => tool.function.name) };
}

describe("system/init of stream-json", () => {
  it("lists in plan mode only the tools plan mode offers, and names mode and approval mode apart", async () => {
    const { first, offered } = await init(["--mode", "plan", "--approval-mode", "auto_edit"]);
    // permissionMode in Claude Code's names; Lathe's own approval mode beside it.
    expect(first).toMatchObject({
      type: "system",
      subtype: "init",
      mode: "plan",
      permissionMode: "plan",
      approval_mode: "auto_edit",
    });
    expect(first).not.toHaveProperty("permission_mode");
    expect(first.tools).toEqual(offered);
    expect(first.tools).toContain("read_file");
    expect(first.tools).not.toContain("write_file");
    expect(first.tools).not.toContain("run_terminal_cmd");
  });

  it("lists in agent mode the tools the model is offered", async () => {
    const { first, offered } = await init([]);
    expect(first).toMatchObject({ mode: "agent", permissionMode: "default", approval_mode: "ask_first" });
    expect(first.tools).toEqual(offered);
    expect(first.tools).toContain("write_file");
  });
});
