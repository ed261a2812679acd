import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeCommand, builtinTools, decidePolicy } from "@lathe/core";
import { describe, expect, it } from "vitest";

const shell = builtinTools().find((tool) => tool.name === "run_terminal_cmd")!;
const root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-project-")));
const home = realpathSync(mkdtempSync(join(tmpdir(), "lathe-home-")));

function decide(command: string, sandbox: { networkAlwaysOn: boolean } | undefined) {
  return decidePolicy({
    tool: shell,
    args: { command },
    projectRoot: root,
    latheHome: home,
    approvalMode: "ask_first",
    rules: [],
    sandbox,
  });
}

/** Commands that run the project's own code: low in the sandbox, medium (asks in ask_first) without. */
const projectCode = [
  "node x.js",
  "python x.py",
  "python3 scripts/build.py --fast",
  "npm run build",
  "npm test",
  "yarn test",
  "pnpm run lint",
  "./run.sh",
  "bash scripts/setup.sh",
  "source ./env.sh",
  "node --test",
  "python -m pytest",
  "vitest run",
  "make",
  "cargo test",
  "go run .",
  "npx vitest",
  "ls && node x.js",
];

/** Commands that only read: their risk does not depend on the sandbox. */
const readers = ["ls", "cat package.json", "git status", "node --version"];

describe("running the project's code depends on the sandbox", () => {
  it.each(projectCode)("%s is low inside a working sandbox", async (command) => {
    expect(await decide(command, { networkAlwaysOn: true })).toMatchObject({
      decision: "allow",
      risk: "low",
    });
  });

  it.each(projectCode)("%s is medium without a sandbox, and asks in ask_first", async (command) => {
    const decision = await decide(command, undefined);
    expect(decision).toMatchObject({ decision: "ask", risk: "medium" });
    expect(decision.reason).toContain("commands run without a sandbox");
  });

  it.each(readers)("%s runs without asking with or without a sandbox", async (command) => {
    const inside = await decide(command, { networkAlwaysOn: false });
    const outside = await decide(command, undefined);
    expect(inside.decision).toBe("allow");
    expect(outside).toEqual(inside);
  });

  it("keeps a command that is already medium or above as it is", async () => {
    expect(await decide("node x.js > /tmp/out.txt", undefined)).toEqual(
      await decide("node x.js > /tmp/out.txt", { networkAlwaysOn: true }),
    );
    expect(await decide("python -c 'print(1)'", undefined)).toEqual(
      await decide("python -c 'print(1)'", { networkAlwaysOn: true }),
    );
  });

  it("marks the analysis, so the raise comes from the policy, not from the command text", async () => {
    expect((await analyzeCommand("node x.js")).runsProjectCode).toBe(true);
    expect((await analyzeCommand("ls; npm test")).runsProjectCode).toBe(true);
    expect((await analyzeCommand("node --version")).runsProjectCode).toBeUndefined();
    expect((await analyzeCommand("cat x.js")).runsProjectCode).toBeUndefined();
  });
});
