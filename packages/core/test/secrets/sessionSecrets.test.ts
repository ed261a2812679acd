import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LatheEvent } from "@lathe/protocol";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/agent/agentSession.js";
import { openPersistence, type Persistence } from "../../src/agent/persistence.js";
import { knownSecrets } from "../../src/llm/credentials.js";
import { createModelClient } from "../../src/llm/index.js";
import { exportSession } from "../../src/store/index.js";
import { builtinTools } from "../../src/tools/builtin/index.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";

/** A key in the environment, one in credentials.json, one Lathe knows only by its format. */
const envKey = fakeKeys.openaiSecret;
const storedKey = fakeKeys.anthropic;
const formatKey = fakeKeys.github;
const allKeys = [envKey, storedKey, formatKey];
const npmToken = ["npm", "-pass-through-", "value-42"].join("");

const commands = {
  env: "env",
  printKey: "printenv OPENAI_API_KEY; echo status=$?",
  // printenv prints the value and a newline, nothing for a missing variable.
  keyLengths: 'echo "openai=$(printenv OPENAI_API_KEY | wc -c) npm=$(printenv NPM_TOKEN | wc -c)"',
  catNotes: "cat notes.txt",
  catBig: "cat big.txt",
  background: 'printenv OPENAI_API_KEY; echo "bg-npm=$(printenv NPM_TOKEN | wc -c)"',
};

const notes = `openai: ${envKey}\nanthropic: ${storedKey}\ngithub: ${formatKey}\n`;
const big = `${notes}${Array.from({ length: 3000 }, (_, i) => `filler line ${i}`).join("\n")}\n${notes}`;

let server: FakeLlm;
let persistence: Persistence;
let session: AgentSession;
let latheHome: string;
const events: LatheEvent[] = [];
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), "lathe-home-dir-"));
  latheHome = mkdtempSync(join(tmpdir(), "lathe-home-"));
  const projectRoot = mkdtempSync(join(tmpdir(), "lathe-project-"));
  writeFileSync(join(projectRoot, "notes.txt"), notes);
  writeFileSync(join(projectRoot, "big.txt"), big);
  writeFileSync(join(latheHome, "credentials.json"), JSON.stringify({ anthropic: { apiKey: storedKey } }));
  chmodSync(join(latheHome, "credentials.json"), 0o600);
  for (const name of ["HOME", "OPENAI_API_KEY", "NPM_TOKEN"]) saved[name] = process.env[name];
  Object.assign(process.env, { HOME: home, OPENAI_API_KEY: envKey, NPM_TOKEN: npmToken });

  const run = (command: string, extra: Record<string, unknown> = {}) => ({
    name: "run_terminal_cmd",
    arguments: { command, ...extra },
  });
  server = await startFakeLlm({
    script: {
      turns: [
        {
          tool_calls: [
            run(commands.env),
            run(commands.printKey),
            run(commands.keyLengths),
            run(commands.catNotes),
            run(commands.catBig),
            { name: "read_file", arguments: { path: "notes.txt" } },
            run(commands.background, { is_background: true }),
          ],
        },
        { text: "done" },
      ],
    },
  });
  const client = createModelClient({
    modelId: "openai:gpt-4.1",
    baseUrl: `${server.url}/v1`,
    apiKey: "scripted-test-key",
    env: {},
    latheHome,
  });
  if (!client.ok) throw new Error(client.error.message);
  const opened = await openPersistence({
    latheHome,
    projectRoot,
    secrets: knownSecrets({ env: process.env, latheHome }),
    checkpoints: { enabled: false },
  });
  if (!opened.ok) throw new Error(opened.error.message);
  persistence = opened.value;
  session = new AgentSession({
    projectRoot,
    latheHome,
    model: client.client,
    tools: new ToolRegistry(builtinTools()),
    approvalMode: "yolo",
    store: persistence.store,
    redact: persistence.redact,
    passEnvironment: ["NPM_TOKEN"],
  });
  session.subscribe((event) => events.push(event));
  const stopTracing = persistence.trace(session);
  const result = await session.send("show me the environment and the notes");
  expect(result.status).toBe("completed");
  await session.dispose();
  await stopTracing();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await persistence?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function expectNoKey(text: string) {
  for (const key of allKeys) expect(text).not.toContain(key);
  expect(text).not.toContain(npmToken);
}

interface OpenAiMessage {
  role: string;
  content?: unknown;
}

/** The tool results the model was sent, in call order. */
function toolResultsSent(): string[] {
  const body = server.requests[1]?.body as { messages: OpenAiMessage[] };
  return body.messages
    .filter((message) => message.role === "tool")
    .map((message) =>
      typeof message.content === "string" ? message.content : JSON.stringify(message.content),
    );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("secrets in a real session", () => {
  it("runs commands without the keys and sends the model no key", () => {
    const results = toolResultsSent();
    expect(results).toHaveLength(7);
    const [env, printKey, lengths, catNotes, catBig, readNotes] = results;
    expectNoKey(JSON.stringify(server.requests.map((request) => request.body)));
    expect(env).not.toContain("OPENAI_API_KEY");
    expect(env).toContain("LATHE=1");
    expect(printKey).toContain("status=1");
    expect(lengths).toContain(`openai=0 npm=${npmToken.length + 1}`);
    for (const shown of [catNotes, catBig, readNotes]) {
      expect(shown).toContain("openai: [redacted]");
      expect(shown).toContain("anthropic: [redacted]");
      expect(shown).toContain("github: [redacted]");
    }
  });

  it("passes a named variable through to the command, still redacted from what it prints", () => {
    const env = toolResultsSent()[0] ?? "";
    expect(env).toContain("NPM_TOKEN=[redacted]");
  });

  it("spills big output with the keys redacted", () => {
    const spills = filesUnder(join(latheHome, "tool-output"));
    expect(spills).toHaveLength(1);
    const spilled = readFileSync(spills[0]!, "utf8");
    expectNoKey(spilled);
    expect(spilled.split("\n").filter((line) => line === "openai: [redacted]")).toHaveLength(2);
    expect(spilled).toContain("filler line 2999\n");
  });

  it("streams and reports the output to faces redacted", () => {
    const shown = events.filter((event) => event.type === "tool_output" || event.type === "tool_completed");
    expect(shown.some((event) => event.type === "tool_output")).toBe(true);
    expectNoKey(JSON.stringify(events));
  });

  it("keeps the keys out of the database export, the traces and the logs", () => {
    const exported = exportSession(persistence.store, session.id);
    if (!exported.ok) throw new Error(exported.error.message);
    expect(exported.value).toContain("[redacted]");
    expectNoKey(exported.value);
    for (const file of [...filesUnder(join(latheHome, "traces")), ...filesUnder(join(latheHome, "logs"))]) {
      expectNoKey(readFileSync(file, "utf8"));
    }
  });
});

describe("the background command", () => {
  it("starts without the keys but with the passed variable", () => {
    const background = toolResultsSent()[6] ?? "";
    expect(background).toContain(`bg-npm=${npmToken.length + 1}`);
    expectNoKey(background);
  });
});
