import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const greet = `export function greet(name) {\n  return \`Hello, \${name}!\`;\n}\n`;
const planAnswer = "1. Add `farewell(name)` to greet.js.\n2. Export it.";
const farewell = `export function farewell(name) {\n  return \`Goodbye, \${name}!\`;\n}\n`;

interface OpenAiBody {
  messages: { role: string; content?: unknown }[];
  tools?: { function: { name: string } }[];
}

async function lathe(turns: FakeTurn[], args: (root: string, url: string) => string[]) {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace({ "greet.js": greet });
  const run = await runLathe(args(ws.root, server.url), {
    home: ws.home,
    env: { OPENAI_API_KEY: fakeKeys.openai },
  });
  return { run, ws };
}

const plans = (root: string) => readdirSync(join(root, ".lathe/plans"));

describe("lathe -p in plan mode", () => {
  it("saves the plan and says where, and how to run it (text)", async () => {
    const { run, ws } = await lathe([{ text: planAnswer }], (root, url) =>
      headlessArgs("Add a farewell function", { root, serverUrl: url, format: "text" }, ["--mode", "plan"]),
    );
    expect(run.code).toBe(0);
    const [name] = plans(ws.root);
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}-add-a-farewell-function\.md$/);
    expect(readFileSync(join(ws.root, ".lathe/plans", name!), "utf8")).toBe(
      `# Plan: Add a farewell function\n\n${planAnswer}\n`,
    );
    expect(run.stdout).toBe(`${planAnswer}\n`);
    // The project is outside the directory the test runs in: the path is shown whole.
    const shown = run.stderr.match(
      /Plan saved to (\S+)\. Edit it if you like, then run it with: lathe -p --plan (\S+)\n/,
    );
    expect(shown?.[1]).toMatch(new RegExp(`^/.*/\\.lathe/plans/${name!.replaceAll(".", "\\.")}$`));
    expect(shown?.[2]).toBe(shown?.[1]);
  });

  it("carries the saved plan in json and stream-json", async () => {
    const json = await lathe([{ text: planAnswer }], (root, url) =>
      headlessArgs("Add a farewell function", { root, serverUrl: url, format: "json" }, ["--mode", "plan"]),
    );
    const [name] = plans(json.ws.root);
    expect(JSON.parse(json.run.stdout.trim().split("\n").at(-1)!).plan).toEqual({
      path: `.lathe/plans/${name}`,
      title: "Add a farewell function",
    });
    await server?.close();

    const stream = await lathe([{ text: planAnswer }], (root, url) =>
      headlessArgs("Add a farewell function", { root, serverUrl: url, format: "stream-json" }, [
        "--mode",
        "plan",
      ]),
    );
    const [streamed] = plans(stream.ws.root);
    const lines = stream.run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const saved = lines.filter((line) => line.subtype === "plan_saved");
    expect(saved).toEqual([
      {
        type: "system",
        subtype: "plan_saved",
        session_id: lines[0].session_id,
        path: `.lathe/plans/${streamed}`,
        title: "Add a farewell function",
      },
    ]);
    expect(lines.findIndex((line) => line.subtype === "plan_saved")).toBeLessThan(
      lines.findIndex((line) => line.type === "result"),
    );
  });
});

describe("lathe -p --plan FILE", () => {
  it("sends the plan to the model in agent mode, which can then change files", async () => {
    const plan = `# Plan: Add a farewell function\n\n${planAnswer}\n`;
    const { run, ws } = await lathe(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "farewell.js", contents: farewell } }] },
        { text: "Added farewell.js." },
      ],
      (root, url) => {
        writeFileSync(join(root, "plan.md"), plan);
        return [
          "-p",
          "--plan",
          join(root, "plan.md"),
          ...headlessArgs("", { root, serverUrl: url, format: "json" }, ["--approval-mode", "yolo"]).slice(2),
        ];
      },
    );
    expect(run.stderr).not.toContain("usage");
    expect(run.code).toBe(0);
    expect(readFileSync(join(ws.root, "farewell.js"), "utf8")).toBe(farewell);
    const first = server!.requests[0]!.body as OpenAiBody;
    const user = first.messages.find((message) => message.role === "user")!;
    expect(JSON.stringify(user.content)).toContain(
      JSON.stringify(
        `Carry out this plan (saved in ${join(ws.root, "plan.md")}). Work through its steps in order, keep the todo list up to date as you go, and check the result when you are done.\n\n${plan}`,
      ).slice(1, -1),
    );
    expect(first.tools?.map((tool) => tool.function.name)).toContain("write_file");
    expect(JSON.stringify(first.messages[0]!.content)).toContain("# Mode: agent");
    const json = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    expect(json).toMatchObject({ status: "completed", final: "Added farewell.js." });
    expect(json.plan).toBeUndefined();
  });

  it("is a usage error with --mode plan or ask, with a prompt, or without a readable plan file", async () => {
    const ws = await makeWorkspace({ "plan.md": "# Plan\n\n1. Do it.\n", "empty.md": "" });
    const exit = (args: string[]) =>
      runLathe(["--cwd", ws.root, "--model", "openai:gpt-4.1", ...args], { home: ws.home });
    const planFile = join(ws.root, "plan.md");

    const planMode = await exit(["-p", "--plan", planFile, "--mode", "plan"]);
    expect(planMode.code).toBe(2);
    expect(planMode.stderr).toContain(
      "lathe: --plan runs a plan in agent mode; it cannot be combined with --mode plan",
    );
    const askMode = await exit(["-p", "--plan", planFile, "--mode", "ask"]);
    expect(askMode.code).toBe(2);
    expect(askMode.stderr).toContain("cannot be combined with --mode ask");
    const withPrompt = await exit(["-p", "--plan", planFile, "do something else"]);
    expect(withPrompt.code).toBe(2);
    expect(withPrompt.stderr).toContain("--plan takes the task from the plan file; give no prompt with it");
    const missing = await exit(["-p", "--plan", join(ws.root, "nope.md")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `lathe: E_FILE_NOT_FOUND: --plan ${join(ws.root, "nope.md")}: no such file.`,
    );
    const directory = await exit(["-p", "--plan", ws.root]);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain(`lathe: E_INVALID_ARGS: --plan ${ws.root} is not a file.`);
    const empty = await exit(["-p", "--plan", join(ws.root, "empty.md")]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("E_INVALID_ARGS");
  });
});
