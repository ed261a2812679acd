import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../src/cliArgs.js";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The tools the model was offered in a headless run with these flags. */
async function offered(extra: string[]): Promise<string[]> {
  server = await startFakeLlm({ script: { turns: [{ text: "Done." }] } });
  const ws = await makeWorkspace({}, { checkpoints: { enabled: false } });
  const run = await runLathe(
    headlessArgs("look around", { root: ws.root, serverUrl: server.url, format: "json" }, extra),
    { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
  );
  expect(run.code, run.stderr).toBe(0);
  const body = server.requests[0]?.body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((tool) => tool.function.name).sort();
}

describe("--tools", () => {
  it.each([
    ["Read,Grep", ["read_file", "search_files"]],
    ["read_file list_directory", ["read_file", "list_directory"]],
    ["", []],
  ])("reads %j as the tools offered", (list, tools) => {
    const parsed = parseCliArgs(["-p", "hi", `--tools=${list}`], "/work");
    expect(parsed.ok && parsed.args.tools).toEqual(tools);
  });

  it("takes default as every tool", () => {
    const parsed = parseCliArgs(["-p", "hi", "--tools", "default"], "/work");
    expect(parsed.ok && parsed.args.tools).toBeUndefined();
    expect(parsed.ok && parsed.args.ignoredFlags).toEqual([]);
  });

  it("offers the model only the tools listed, and every tool without the flag", async () => {
    expect(await offered(["--tools=Read,list_directory"])).toEqual(["list_directory", "read_file"]);
    const all = await offered([]);
    expect(all).toContain("write_file");
    expect(all).toContain("run_terminal_cmd");
  });
});
