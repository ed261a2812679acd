import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

const casesDir = fileURLToPath(new URL("../../../eval/cases", import.meta.url));

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Summary {
  id: string;
  pass: boolean;
  iterations: number;
  scores: { completion: number; efficiency: number; total: number };
}

describe("lathe eval", () => {
  it("runs cases with their scripted models and prints scores", async () => {
    const ws = await makeWorkspace();
    const run = await runLathe(["eval", "--cases", "AC01,E07", "--cases-dir", casesDir, "--json"], {
      home: ws.home,
    });
    expect(run.code, run.stderr).toBe(0);
    const outcomes = JSON.parse(run.stdout) as Summary[];
    expect(outcomes.map((o) => [o.id, o.pass, o.scores.completion, o.scores.efficiency])).toEqual([
      ["AC01", true, 10, 10],
      ["E07", true, 10, 10],
    ]);
  });

  it("runs against a real provider when a key is present (here the provider is a scripted server)", async () => {
    const scripted = JSON.parse(readFileSync(join(casesDir, "AC01-create-file", "scripted.json"), "utf8"));
    server = await startFakeLlm({ script: { turns: [...scripted.turns, ...scripted.turns] } });
    const ws = await makeWorkspace({}, { baseUrls: { openai: `${server.url}/v1` } });
    const run = await runLathe(
      ["eval", "--model", "openai:gpt-4.1", "--cases", "AC01", "--repeat", "2", "--cases-dir", casesDir],
      { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^PASS AC01 .*\nPASS AC01 /);
    expect(run.stdout).toContain("openai:gpt-4.1: 2/2 passed");
    expect(server.requests).toHaveLength(4);
  });

  it("skips with a clear message when the provider has no key", async () => {
    const ws = await makeWorkspace();
    writeFileSync(join(ws.home, "credentials.json"), "{}", { mode: 0o600 });
    const run = await runLathe(["eval", "--model", "anthropic:claude-sonnet-4-5", "--cases-dir", casesDir], {
      home: ws.home,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^lathe eval: skipped: No API key for anthropic\. Set ANTHROPIC_API_KEY/);
  });

  it("refuses an unknown case with a usage error", async () => {
    const ws = await makeWorkspace();
    const run = await runLathe(["eval", "--cases", "E99", "--cases-dir", casesDir], { home: ws.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no case matches E99");
  });
});
