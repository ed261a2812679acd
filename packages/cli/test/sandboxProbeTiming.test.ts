import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
const temporary: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A `bwrap` first on PATH that notes each start in a log and fails, as a bubblewrap that cannot
 * sandbox here would: the probe's start is visible, and its failure brings the notice.
 */
function failingBwrap(): { binDir: string; log: string } {
  const binDir = mkdtempSync(join(tmpdir(), "lathe-fake-bwrap-"));
  temporary.push(binDir);
  const log = join(binDir, "starts.log");
  writeFileSync(join(binDir, "bwrap"), `#!/bin/sh\necho started >> '${log}'\nexit 1\n`);
  chmodSync(join(binDir, "bwrap"), 0o755);
  return { binDir, log };
}

async function headlessWithFailingBwrap(turns: FakeTurn[]) {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace({ "README.md": "# A project\n" });
  temporary.push(ws.root, ws.home);
  const bwrap = failingBwrap();
  const run = await runLathe(
    headlessArgs("go", { root: ws.root, serverUrl: server.url }, ["--approval-mode", "yolo"]),
    {
      home: ws.home,
      env: { OPENAI_API_KEY: fakeKeys.openai, PATH: `${bwrap.binDir}${delimiter}${process.env.PATH ?? ""}` },
    },
  );
  const probes = existsSync(bwrap.log) ? readFileSync(bwrap.log, "utf8").split("\n").filter(Boolean) : [];
  return { run, probes };
}

const notice =
  "lathe: commands run without a sandbox: bubblewrap is installed but cannot sandbox here (exit code 1).\n";

describe("the sandbox probe of a headless run", () => {
  it("never starts when the model calls no tool", async () => {
    const { run, probes } = await headlessWithFailingBwrap([{ text: "nothing to run" }]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split("\n").at(-1)!).final).toBe("nothing to run");
    expect(probes).toEqual([]);
    expect(run.stderr).not.toContain("without a sandbox");
  });

  it("starts once, at the first tool call, and tells the user once", async () => {
    const { run, probes } = await headlessWithFailingBwrap([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo first" } }] },
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo second" } }] },
      { text: "done" },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(probes).toEqual(["started"]);
    expect(run.stderr.split(notice)).toHaveLength(2);
    const results = server!.requests.slice(1).map((request) => JSON.stringify(request.body));
    expect(results[0]).toContain("first");
    expect(results[1]).toContain("second");
  });
});
