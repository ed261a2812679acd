import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHostileFixture, type HostileFixture } from "../../../core/test/git/hostileRepository.js";
import { headlessArgs, makeWorkspace, runLathe } from "../latheProcess.js";

let fixture: HostileFixture;
let server: FakeLlm | undefined;
beforeEach(() => {
  fixture = createHostileFixture();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  fixture.cleanup();
});

/**
 * A real `lathe -p` in the hostile repository, launched with the hostile GIT_* variables and a
 * throwaway HOME: the prompt's git summary, the `@git diff` mention and the checkpoints (one per
 * user message, one before the edit) all run git there.
 */
async function headless(approvalMode: "ask_first" | "auto") {
  const later = new Date("2030-01-01T00:00:00Z");
  for (const file of ["a.txt", "notes.md"]) utimesSync(path.join(fixture.project, file), later, later);
  writeFileSync(path.join(fixture.project, "a.txt"), "one\ntwo\nthree\n");
  server = await startFakeLlm({
    script: {
      turns: [
        { tool_calls: [{ name: "write_file", arguments: { path: "b.txt", contents: "written\n" } }] },
        { text: "Done." },
      ],
    },
  });
  const ws = await makeWorkspace();
  const result = await runLathe(
    headlessArgs(
      "Look at @git diff and add b.txt",
      { root: fixture.project, serverUrl: server.url, format: "stream-json" },
      ["--approval-mode", approvalMode],
    ),
    {
      home: ws.home,
      env: {
        OPENAI_API_KEY: fakeKeys.openai,
        HOME: fixture.home,
        TMPDIR: tmpdir(),
        ...fixture.hostileVariables(),
      },
    },
  );
  return {
    result,
    checkpoints: checkpointRefs(ws.home),
    firstRequest: JSON.stringify(server.requests[0]?.body),
  };
}

/** The checkpoint refs of every shadow repository under `$LATHE_HOME/checkpoints`. */
function checkpointRefs(latheHome: string): number {
  const root = path.join(latheHome, "checkpoints");
  return readdirSync(root).reduce((count, dir) => {
    const refs = fixture.git(
      ["--git-dir", path.join(root, dir), "for-each-ref", "--format=%(refname)"],
      root,
    );
    return count + refs.split("\n").filter((line) => line !== "").length;
  }, 0);
}

describe("git in a hostile repository, through a real session", () => {
  it.each([
    "ask_first",
    "auto",
  ] as const)("%s: the git summary, @git diff and the checkpoints start no program of the repository", async (approvalMode) => {
    const { result, checkpoints, firstRequest } = await headless(approvalMode);
    // ask_first: nobody can approve the write in a headless run, so it ends denied (exit 5).
    expect(result.code, result.stderr).toBe(approvalMode === "ask_first" ? 5 : 0);
    // The model saw the project's real state: the summary's commits and the mention's diff.
    expect(firstRequest).toContain("Second commit");
    expect(firstRequest).toContain("+three");
    // The user message's; the one before the edit finds the same tree and adds no other.
    expect(checkpoints).toBe(1);
    if (approvalMode === "auto") {
      expect(readFileSync(path.join(fixture.project, "b.txt"), "utf8")).toBe("written\n");
    }
    expect(fixture.markersFound()).toEqual([]);
  });
});
