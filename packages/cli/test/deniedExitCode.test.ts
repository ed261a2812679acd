import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A hard-blocked command from the decision corpus: only ever judged, and blocked in every mode. */
const corpusFile = fileURLToPath(new URL("../../core/test/policy/corpora/decisions.json", import.meta.url));
const hardBlocked = (
  JSON.parse(readFileSync(corpusFile, "utf8")) as { name: string; args: { command: string } }[]
).find((row) => row.name === "a download piped to a shell")!.args.command;

/** A headless run in stream-json: its exit code and how each tool call ended. */
async function headless(turns: FakeTurn[], extra: string[], files: Record<string, string> = {}) {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace(files, { checkpoints: { enabled: false } });
  const run = await runLathe(
    headlessArgs("do the task", { root: ws.root, serverUrl: server.url, format: "stream-json" }, extra),
    { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
  );
  const lines = run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const results = lines
    .filter((line) => line.type === "tool_call" && line.subtype === "completed")
    .map((line) => line.tool_call.result);
  return { run, results, result: lines.at(-1), ws };
}

const command = (text: string): FakeTurn => ({
  tool_calls: [{ name: "run_terminal_cmd", arguments: { command: text } }],
});

describe("exit code 5: denied by policy with no way forward", () => {
  it("ends 5 when the model gives up after a hard-blocked command", async () => {
    // manual mode: were the block ever to fail, the call would only ask, and headless nothing runs.
    const { run, results, result } = await headless(
      [command(hardBlocked), { text: "That command is blocked; I cannot go on." }],
      ["--approval-mode", "manual"],
    );
    expect(results).toEqual([
      { status: "blocked", error: expect.objectContaining({ code: "E_COMMAND_BLOCKED" }) },
    ]);
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      result: "That command is blocked; I cannot go on.",
    });
    expect(run.code).toBe(5);
  });

  it("ends 5 when a --deny rule denies the last round's call", async () => {
    const { run, results, ws } = await headless(
      [command("echo hello > marker.txt"), { text: "The rule denies echo." }],
      ["--approval-mode", "yolo", "--deny", "run_terminal_cmd(echo *)"],
    );
    expect(results).toEqual([
      { status: "blocked", error: expect.objectContaining({ code: "E_SECURITY_BLOCKED" }) },
    ]);
    expect(existsSync(join(ws.root, "marker.txt"))).toBe(false);
    expect(run.code).toBe(5);
  });

  it("ends 5 when ask_first needs an approval no one can give headless", async () => {
    const { run, results, ws } = await headless(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "x.txt", contents: "x" } }] },
        { text: "I could not write it." },
      ],
      [],
    );
    expect(results).toEqual([{ status: "rejected", message: expect.stringContaining("headless") }]);
    expect(existsSync(join(ws.root, "x.txt"))).toBe(false);
    expect(run.code).toBe(5);
  });

  it("ends 5 when every call of the last round is denied, even after earlier successes", async () => {
    const { run, results } = await headless(
      [
        { tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
        {
          tool_calls: [
            { name: "run_terminal_cmd", arguments: { command: "echo one" } },
            { name: "run_terminal_cmd", arguments: { command: "echo two" } },
          ],
        },
        { text: "Both were denied." },
      ],
      ["--approval-mode", "yolo", "--deny", "run_terminal_cmd(echo *)"],
      { "a.txt": "a\n" },
    );
    expect(results.map((r) => r.status)).toEqual(["success", "blocked", "blocked"]);
    expect(run.code).toBe(5);
  });

  it("ends 0 when a successful call follows the denial", async () => {
    const { run, results } = await headless(
      [
        command("echo hello"),
        { tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
        { text: "Read a.txt instead." },
      ],
      ["--approval-mode", "yolo", "--deny", "run_terminal_cmd(echo *)"],
      { "a.txt": "a\n" },
    );
    expect(results.map((r) => r.status)).toEqual(["blocked", "success"]);
    expect(run.code).toBe(0);
  });

  it("ends 0 when a call of the last round completed beside the denied one", async () => {
    const { run, results } = await headless(
      [
        {
          tool_calls: [
            { name: "run_terminal_cmd", arguments: { command: "echo hello" } },
            { name: "read_file", arguments: { path: "a.txt" } },
          ],
        },
        { text: "Read a.txt; echo was denied." },
      ],
      ["--approval-mode", "yolo", "--deny", "run_terminal_cmd(echo *)"],
      { "a.txt": "a\n" },
    );
    expect(results.map((r) => r.status).sort()).toEqual(["blocked", "success"]);
    expect(run.code).toBe(0);
  });

  it("ends 0 when the run called no tool at all", async () => {
    const { run } = await headless([{ text: "Nothing to do." }], ["--deny", "run_terminal_cmd(echo *)"]);
    expect(run.code).toBe(0);
  });
});
