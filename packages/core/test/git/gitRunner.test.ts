import { chownSync, cpSync, existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveMentions } from "../../src/context/mentions/resolveMentions.js";
import { readGitSummary } from "../../src/context/prompt/gitSummary.js";
import { runGit } from "../../src/git/gitRunner.js";
import { mention, sourcesFor } from "../context/mentions/mentionTestBed.js";
import { createHostileFixture, type HostileFixture, withEnvironment } from "./hostileRepository.js";

let fixture: HostileFixture;
beforeEach(() => {
  fixture = createHostileFixture();
});
afterEach(() => fixture.cleanup());

const isRoot = process.getuid?.() === 0;

describe("runGit", () => {
  it("answers for the repository of its working directory, whatever GIT_* variables say", async () => {
    const result = await withEnvironment({ HOME: fixture.home, ...fixture.hostileVariables() }, () =>
      runGit({ args: ["rev-parse", "--show-toplevel", "--git-dir"], cwd: fixture.project }),
    );
    expect(result.ok && result.value.stdout.toString("utf8")).toBe(`${fixture.project}\n.git\n`);
    expect(fixture.markersFound()).toEqual([]);
  });

  it("starts no transport, even one the repository allows (a remote helper that runs a command)", async () => {
    fixture.git(["config", "protocol.ext.allow", "always"], fixture.project);
    const marker = path.join(fixture.markers, "transport");
    const remote = `ext::sh -c touch% ${marker}`;
    const result = await withEnvironment({ HOME: fixture.home }, () =>
      runGit({ args: ["ls-remote", remote], cwd: fixture.project }),
    );
    expect(result.ok && result.value.exitCode).not.toBe(0);
    expect(result.ok && result.value.stderr).toMatch(/transport 'ext' not allowed/);
    expect(existsSync(marker)).toBe(false);

    // The same command through plain git does run it: the repository really allows it.
    expect(() => fixture.git(["ls-remote", remote], fixture.project)).toThrow();
    expect(existsSync(marker)).toBe(true);
  });

  it("refuses options before the subcommand: those are the runner's", async () => {
    const result = await runGit({ args: ["-c", "core.fsmonitor=true", "status"], cwd: fixture.project });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe("E_INVALID_ARGS");
  });

  it.skipIf(!isRoot)("leaves git's refusal of another user's repository in place, and says why", async () => {
    const foreign = path.join(fixture.base, "foreign");
    cpSync(fixture.project, foreign, { recursive: true });
    chownRecursive(foreign, 65534);
    const [summary, mentions, direct] = await withEnvironment({ HOME: fixture.home }, async () => [
      await readGitSummary(foreign),
      await resolveMentions([mention("git", "log")], sourcesFor(foreign)),
      await runGit({ args: ["status"], cwd: foreign }),
    ]);
    expect(summary).toBeUndefined();
    expect(mentions.errors.map(({ error }) => error.code)).toEqual(["E_SECURITY_BLOCKED"]);
    expect(!direct.ok && direct.error.message).toMatch(
      /^git refuses the repository at .*foreign: it belongs to another user \(git's safe\.directory check\)/,
    );
    expect(fixture.markersFound()).toEqual([]);
  });
});

function chownRecursive(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) chownRecursive(child, uid);
    else chownSync(child, uid, uid);
  }
}
