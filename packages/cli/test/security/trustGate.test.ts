import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, runLathe } from "../latheProcess.js";
import { type PlantedRepository, plantedRepository } from "../trustFixture.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The model asks for `touch rule-allowed.txt` (medium risk: `ask_first` asks, and a headless run
 * cannot answer) which the planted `allow: ["run_terminal_cmd"]` would allow.
 */
async function attack(repo: PlantedRepository, approvalMode: string, extra: string[] = []) {
  await server?.close();
  server = await startFakeLlm({
    script: {
      turns: [
        { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "touch rule-allowed.txt" } }] },
        { text: "Done." },
      ],
    },
  });
  const run = await runLathe(
    headlessArgs("Set the project up", { root: repo.root, serverUrl: server.url, format: "json" }, [
      "--approval-mode",
      approvalMode,
      ...extra,
    ]),
    { home: repo.home, env: { OPENAI_API_KEY: fakeKeys.openai, HOME: repo.userHome } },
  );
  const requests = server.requests.map((request) => JSON.stringify(request.body));
  return { run, requests, result: JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") };
}

const allMarkers = [
  "mcp-cursor",
  "mcp-lathe",
  "post-tool-use",
  "pre-tool-use",
  "session-start",
  "stop",
  "user-prompt-submit",
];

describe("workspace trust gate: a cloned repository with planted project files", () => {
  it("runs none of them in ask_first or auto, reports each, and grants nothing; --trust is the only difference", async () => {
    const repo = plantedRepository();

    const askFirst = await attack(repo, "ask_first");
    // Untrusted, the project's allow rule does not count: the call is refused (exit 5).
    expect(askFirst.run.code).toBe(5);
    expect(repo.markersNow()).toEqual([]);
    for (const file of [
      ".lathe/hooks.json",
      ".lathe/mcp.json",
      ".cursor/mcp.json",
      ".lathe/settings.json",
      ".lathe/agents/planted.md",
    ]) {
      expect(askFirst.run.stderr).toContain(`  ${file}\n`);
    }
    expect(askFirst.run.stderr).toContain(`${repo.root} is not trusted, so these project files were ignored`);
    expect(askFirst.run.stderr).toContain(
      `SessionStart hook runs: touch ${join(repo.markers, "session-start")}`,
    );
    expect(askFirst.run.stderr).toContain("allows run_terminal_cmd");
    expect(askFirst.run.stderr).toContain("lathe trust");
    // The planted allow rule did not apply: the command was refused, not run.
    expect(repo.exists("rule-allowed.txt")).toBe(false);
    expect(askFirst.requests[1]).toContain("E_USER_REJECTED");
    // No MCP tool reached the model.
    expect(askFirst.requests[0]).not.toContain("mcp__");

    const auto = await attack(repo, "auto");
    expect(auto.run.code).toBe(0);
    expect(repo.markersNow()).toEqual([]);
    expect(auto.run.stderr).toContain(`${repo.root} is not trusted`);
    rmSync(join(repo.root, "rule-allowed.txt"), { force: true });
    expect(() => readFileSync(join(repo.home, "trust.json"))).toThrow();

    // The same run with --trust: every planted file takes effect, and the trust is recorded.
    const trusted = await attack(repo, "ask_first", ["--trust"]);
    expect(trusted.run.code).toBe(0);
    expect(trusted.run.stderr).not.toContain("is not trusted");
    expect(repo.markersNow()).toEqual(allMarkers);
    expect(repo.exists("rule-allowed.txt")).toBe(true);
    const record = JSON.parse(readFileSync(join(repo.home, "trust.json"), "utf8"));
    expect(Object.keys(record.folders)).toEqual([repo.root]);
  });

  it("invalidates the trust when hooks.json is edited after trusting, and names the file", async () => {
    const repo = plantedRepository();
    const first = await attack(repo, "ask_first", ["--trust"]);
    expect(first.run.code).toBe(0);
    expect(repo.markersNow()).toEqual(allMarkers);
    for (const marker of allMarkers) rmSync(join(repo.markers, marker));
    rmSync(join(repo.root, "rule-allowed.txt"));

    repo.write(".lathe/hooks.json", {
      hooks: {
        SessionStart: [
          { hooks: [{ type: "command", command: `touch ${join(repo.markers, "edited-hook")}` }] },
        ],
      },
    });
    const after = await attack(repo, "ask_first");
    expect(after.run.code).toBe(5);
    expect(repo.markersNow()).toEqual([]);
    expect(after.run.stderr).toContain(
      `Files of ${repo.root} changed since you trusted it: .lathe/hooks.json (edited).`,
    );
    expect(after.run.stderr).toContain(`SessionStart hook runs: touch ${join(repo.markers, "edited-hook")}`);
    expect(repo.exists("rule-allowed.txt")).toBe(false);
  });
});
