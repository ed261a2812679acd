import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { closeTerminals, startTerminal } from "./terminalScreen.js";
import { type PlantedRepository, plantedRepository } from "./trustFixture.js";

let llm: FakeLlm | undefined;
afterEach(async () => {
  await closeTerminals();
  await llm?.close();
  llm = undefined;
});

/**
 * The interactive terminal UI on a real terminal (a pseudo-terminal): answers the trust question,
 * sends one message, waits for the answer and quits. Returns the screen with the question, and
 * the screen it left.
 */
async function chatOnce(
  repo: PlantedRepository,
  trustAnswer: string,
  reply: string,
): Promise<{ question: string; after: string }> {
  await llm?.close();
  llm = await startFakeLlm({ script: { turns: [{ text: reply }] } });
  const terminal = await startTerminal({
    args: ["--cwd", repo.root, "--model", "openai:gpt-4.1", "--base-url", `${llm.url}/v1`],
    cwd: repo.root,
    home: repo.home,
    // The user's home apart from LATHE_HOME, as the fixture plants files in it.
    env: { HOME: repo.userHome },
    // Wide enough that the long temporary paths do not wrap.
    cols: 220,
  });
  // The question's panel leaves the screen once answered: it is read while it is up.
  const question = await terminal.waitFor("Trust this folder? [y] yes  [n] no");
  terminal.type(trustAnswer);
  await terminal.waitFor("Type a task");
  await terminal.waitForInput();
  await terminal.submit("say hello");
  await terminal.waitFor(reply);
  await terminal.submit("/exit");
  await terminal.exited;
  return { question, after: terminal.screen() };
}

describe("the interactive chat asks once whether to trust a folder with gated files", () => {
  it("runs without them on no, and with them (recorded) on yes", async () => {
    const repo = plantedRepository();
    const declined = await chatOnce(repo, "n", "Hello from an untrusted folder.");
    expect(declined.question).toContain(
      `${repo.root} holds project files that run programs or grant permissions:`,
    );
    expect(declined.question).toContain(
      `SessionStart hook runs: touch ${join(repo.markers, "session-start")}`,
    );
    expect(declined.after).toContain(`${repo.root} is not trusted, so these project files were ignored`);
    expect(repo.markersNow()).toEqual([]);
    expect(existsSync(join(repo.home, "trust.json"))).toBe(false);

    const accepted = await chatOnce(repo, "y", "Hello from a trusted folder.");
    expect(accepted.after).not.toContain("is not trusted");
    expect(repo.markersNow()).toEqual(
      expect.arrayContaining(["mcp-cursor", "mcp-lathe", "user-prompt-submit"]),
    );
    const record = JSON.parse(readFileSync(join(repo.home, "trust.json"), "utf8"));
    expect(Object.keys(record.folders)).toEqual([repo.root]);
  }, 120_000);
});
