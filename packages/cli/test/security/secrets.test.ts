import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "../latheProcess.js";

/** The provider key of the run, one in credentials.json, one Lathe knows only by its format. */
const envKey = fakeKeys.openaiSecret;
const storedKey = fakeKeys.anthropic;
const formatKey = fakeKeys.github;
const npmToken = ["npm", "-pass-through-", "value-42"].join("");

const notes = `openai: ${envKey}\nanthropic: ${storedKey}\ngithub: ${formatKey}\n`;
const big = `${notes}${Array.from({ length: 3000 }, (_, i) => `filler line ${i}`).join("\n")}\n${notes}`;

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectNoKey(text: string) {
  for (const key of [envKey, storedKey, formatKey, npmToken]) expect(text).not.toContain(key);
}

const run = (command: string) => ({ name: "run_terminal_cmd", arguments: { command } });

/** A real `lathe -p` in a temp project, with a throwaway HOME and LATHE_HOME holding credentials.json. */
async function headless(turns: FakeTurn[], format: "json" | "stream-json", approvalMode = "yolo") {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace(
    { "notes.txt": notes, "big.txt": big },
    { shell: { passEnvironment: ["NPM_TOKEN"] } },
  );
  const credentials = join(ws.home, "credentials.json");
  writeFileSync(credentials, JSON.stringify({ anthropic: { apiKey: storedKey } }));
  chmodSync(credentials, 0o600);
  const env = {
    OPENAI_API_KEY: envKey,
    NPM_TOKEN: npmToken,
    HOME: mkdtempSync(join(tmpdir(), "lathe-user-")),
  };
  const result = await runLathe(
    headlessArgs("look around", { root: ws.root, serverUrl: server.url, format }, [
      "--approval-mode",
      approvalMode,
    ]),
    { home: ws.home, env },
  );
  return { result, ws, env };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("secrets in lathe -p", () => {
  // The commands are read-only, so they run with no approval given in either mode.
  it.each([
    "ask_first",
    "auto",
  ])("keeps keys out of commands, the model's requests, stream-json, the spill file and the export (%s)", async (approvalMode) => {
    const { result, ws, env } = await headless(
      [
        {
          tool_calls: [
            run("env"),
            run("printenv OPENAI_API_KEY; echo status=$?"),
            run("cat notes.txt"),
            run("cat big.txt"),
          ],
        },
        { text: "done" },
      ],
      "stream-json",
      approvalMode,
    );
    expect(result.code).toBe(0);
    expectNoKey(result.stdout);
    expectNoKey(result.stderr);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const outputs = lines
      .filter((line) => line.type === "tool_call" && line.subtype === "completed")
      .map((line) => (line.tool_call as { result: { output: string } }).result.output);
    expect(outputs).toHaveLength(4);
    const [envOutput, printKey, catNotes, catBig] = outputs as [string, string, string, string];
    expect(envOutput).not.toContain("OPENAI_API_KEY");
    expect(envOutput).toContain(`HOME=${env.HOME}\n`);
    expect(printKey).toContain("status=1");
    for (const shown of [catNotes, catBig]) {
      expect(shown).toContain("openai: [redacted]\nanthropic: [redacted]\ngithub: [redacted]");
    }

    const sent = server!.requests.map((request) => JSON.stringify(request.body));
    expect(sent).toHaveLength(2);
    expectNoKey(sent.join("\n"));
    expect(sent[1]).toContain("openai: [redacted]");

    const spills = filesUnder(join(ws.home, "tool-output"));
    expect(spills).toHaveLength(1);
    const spilled = readFileSync(spills[0]!, "utf8");
    expectNoKey(spilled);
    expect(spilled.split("\n").filter((line) => line === "openai: [redacted]")).toHaveLength(2);
    expect(spilled).toContain("filler line 2999\n");

    const sessionId = lines[0]?.session_id as string;
    const exported = await runLathe(["sessions", "export", sessionId], { home: ws.home, env });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("[redacted]");
    expectNoKey(exported.stdout);
  }, 120_000);

  it("redacts a key the model repeats in its answer from the json output", async () => {
    const { result } = await headless([{ text: `The key is ${envKey}.` }], "json");
    expect(result.code).toBe(0);
    expectNoKey(result.stdout);
    expect(JSON.parse(result.stdout.trim()).final).toBe("The key is [redacted].");
  }, 60_000);
});
