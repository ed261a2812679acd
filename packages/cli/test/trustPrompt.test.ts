import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type PlantedRepository, plantedRepository } from "./trustFixture.js";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/**
 * The interactive chat on a real terminal (`script` gives it a pseudo-terminal): answers the
 * trust question, sends one message, waits for the answer and quits. Returns all it printed.
 */
async function chatOnce(repo: PlantedRepository, trustAnswer: string, reply: string): Promise<string> {
  await llm?.close();
  llm = await startFakeLlm({ script: { turns: [{ text: reply }] } });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: repo.home, HOME: repo.userHome, OPENAI_API_KEY: fakeKeys.openai });
  const command = [
    process.execPath,
    latheBin,
    "--cwd",
    repo.root,
    "--model",
    "openai:gpt-4.1",
    "--base-url",
    `${llm.url}/v1`,
  ].join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  const waiters: { done: () => boolean; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const waiter of waiters.filter((w) => w.done())) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const until = (what: string, done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      waiters.push({ done, resolve });
      closed.then(() => reject(new Error(`the chat ended before ${what}:\n${output}`)));
    });
  const seen = (text: string) => until(`printing "${text}"`, () => output.includes(text));
  await seen("Trust this folder? [y/N] ");
  child.stdin.write(`${trustAnswer}\r`);
  await seen("Type a task");
  child.stdin.write("hi\r");
  await seen(reply);
  // The chat reads the next line only once it prompts again.
  await until("prompting again", () => output.lastIndexOf("›") > output.indexOf(reply));
  child.stdin.write("/exit\r");
  await closed;
  return output;
}

describe("the interactive chat asks once whether to trust a folder with gated files", () => {
  it("runs without them on no, and with them (recorded) on yes", async () => {
    const repo = plantedRepository();
    const declined = await chatOnce(repo, "n", "Hello from an untrusted folder.");
    expect(declined).toContain(`${repo.root} holds project files that run programs or grant permissions:`);
    expect(declined).toContain(`SessionStart hook runs: touch ${join(repo.markers, "session-start")}`);
    expect(declined).toContain(`${repo.root} is not trusted, so these project files were ignored`);
    expect(repo.markersNow()).toEqual([]);
    expect(existsSync(join(repo.home, "trust.json"))).toBe(false);

    const accepted = await chatOnce(repo, "y", "Hello from a trusted folder.");
    expect(accepted).not.toContain("is not trusted");
    expect(repo.markersNow()).toEqual(
      expect.arrayContaining(["mcp-cursor", "mcp-lathe", "user-prompt-submit"]),
    );
    const record = JSON.parse(readFileSync(join(repo.home, "trust.json"), "utf8"));
    expect(Object.keys(record.folders)).toEqual([repo.root]);
  }, 120_000);
});
