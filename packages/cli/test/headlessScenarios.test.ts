import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Fast gateway timings so fault scenarios take milliseconds, not the production seconds. */
const fastLlm = {
  llm: {
    firstByteTimeoutMs: 300,
    idleTimeoutMs: 1000,
    firstByteRetryDelayMs: 10,
    rateLimitDefaultDelayMs: 10,
    serverErrorDelaysMs: [10, 20, 40],
  },
};

interface OpenAiMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

function openAiMessages(index: number): OpenAiMessage[] {
  const body = server!.requests[index]!.body as { messages: OpenAiMessage[] };
  return body.messages;
}

async function headless(
  turns: FakeTurn[],
  prompt: string,
  extra: string[] = [],
  files: Record<string, string> = {},
  output: { format?: "json" | "stream-json"; onStdout?: Parameters<typeof runLathe>[1]["onStdout"] } = {},
) {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace(files, fastLlm);
  const run = await runLathe(
    headlessArgs(prompt, { root: ws.root, serverUrl: server.url, format: output.format ?? "json" }, extra),
    { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai }, onStdout: output.onStdout },
  );
  const lines = run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return { run, json: lines.at(-1), lines, ws };
}

describe("acceptance cases over HTTP", () => {
  it("AC-01 creates hello.js", async () => {
    const { run, json, ws } = await headless(
      [
        {
          tool_calls: [
            {
              name: "write_file",
              arguments: { path: "hello.js", contents: 'console.log("Hello, world!");\n' },
            },
          ],
        },
        { text: "Created hello.js, which prints Hello, world!" },
      ],
      "Create hello.js that prints Hello, world!",
      ["--approval-mode", "yolo"],
    );
    expect(run.code).toBe(0);
    expect(readFileSync(join(ws.root, "hello.js"), "utf8")).toBe('console.log("Hello, world!");\n');
    expect(json).toMatchObject({
      status: "completed",
      iterations: 2,
      final: "Created hello.js, which prints Hello, world!",
    });
    expect(json.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const second = openAiMessages(1);
    const call = second.find((m) => m.role === "assistant")!.tool_calls![0]!;
    const result = second.find((m) => m.role === "tool")!;
    expect(result.tool_call_id).toBe(call.id);
    expect(String(result.content)).toContain("hello.js");
  });

  it("AC-02 reads a file, then changes it", async () => {
    const { run, json, ws } = await headless(
      [
        { tool_calls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
        {
          tool_calls: [
            {
              name: "write_file",
              arguments: { path: "src/add.js", contents: "export const add = (a, b) => a + b;\n" },
            },
          ],
        },
        { text: "Fixed add." },
      ],
      "fix the add function",
      ["--approval-mode", "yolo"],
      { "src/add.js": "export const add = (a, b) => a - b;\n" },
    );
    expect(run.code).toBe(0);
    expect(json.status).toBe("completed");
    expect(readFileSync(join(ws.root, "src/add.js"), "utf8")).toBe("export const add = (a, b) => a + b;\n");
    const readResult = openAiMessages(1).find((m) => m.role === "tool")!;
    expect(String(readResult.content)).toContain("     1|export const add = (a, b) => a - b;");
  });

  it("AC-03 runs npm --version and reports it", async () => {
    const npmVersion = execFileSync("npm", ["--version"], { encoding: "utf8" }).trim();
    const { run, json } = await headless(
      [
        { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "npm --version" } }] },
        { text: `npm is ${npmVersion}` },
      ],
      "which npm version is installed?",
      ["--approval-mode", "yolo"],
    );
    expect(run.code).toBe(0);
    expect(json.final).toBe(`npm is ${npmVersion}`);
    const toolResult = String(openAiMessages(1).find((m) => m.role === "tool")!.content);
    expect(toolResult).toContain(npmVersion);
    expect(toolResult).toMatch(/exit code:? 0/i);
  });

  it("AC-09 stops a 30-round script at 25 rounds with exit code 3", async () => {
    const turns: FakeTurn[] = Array.from({ length: 30 }, (_, i) => ({
      tool_calls: [{ name: "read_file", arguments: { path: "a.txt", offset: (i % 3) + 1 } }],
    }));
    const { run, json } = await headless(turns, "keep reading", ["--approval-mode", "yolo"], {
      "a.txt": "1\n2\n3\n",
    });
    expect(run.code).toBe(3);
    expect(json.status).toBe("iteration_limit");
    expect(json.iterations).toBe(25);
    expect(server!.turnsServed()).toBe(25);
  });

  it("AC-13 runs three tool calls of one turn and returns results in call order", async () => {
    const { run } = await headless(
      [
        {
          tool_calls: [
            { name: "read_file", arguments: { path: "one.txt" } },
            { name: "read_file", arguments: { path: "two.txt" } },
            { name: "read_file", arguments: { path: "three.txt" } },
          ],
        },
        { text: "Read all three." },
      ],
      "read the three files",
      [],
      { "one.txt": "first\n", "two.txt": "second\n", "three.txt": "third\n" },
    );
    expect(run.code).toBe(0);
    const messages = openAiMessages(1);
    const calls = messages.find((m) => m.role === "assistant")!.tool_calls!;
    const results = messages.filter((m) => m.role === "tool");
    expect(calls.map((c) => JSON.parse(c.function.arguments).path)).toEqual([
      "one.txt",
      "two.txt",
      "three.txt",
    ]);
    expect(results.map((r) => r.tool_call_id)).toEqual(calls.map((c) => c.id));
    expect(results.map((r) => String(r.content).match(/\|(\w+)/)?.[1])).toEqual(["first", "second", "third"]);
  });
});

describe("gateway faults through the CLI", () => {
  it("honours 429 retry-after and then succeeds", async () => {
    const { run, json } = await headless(
      [
        { error: { status: 429, retry_after_s: 0.05, body: '{"error":{"message":"slow down"}}' } },
        { text: "done" },
      ],
      "hi",
    );
    expect(run.code).toBe(0);
    expect(json.final).toBe("done");
    expect(server!.turnsServed()).toBe(2);
  });

  it("retries a 500 and then succeeds", async () => {
    const { run, json } = await headless([{ error: { status: 500 } }, { text: "recovered" }], "hi");
    expect(run.code).toBe(0);
    expect(json.final).toBe("recovered");
    expect(server!.turnsServed()).toBe(2);
  });

  it("stops on 401 without retrying, exit code 6", async () => {
    const { run, json } = await headless([{ error: { status: 401 } }, { text: "never sent" }], "hi");
    expect(run.code).toBe(6);
    expect(json.status).toBe("failed");
    expect(json.error.code).toBe("E_LLM_AUTH");
    expect(server!.turnsServed()).toBe(1);
  });

  it("retries once when the first byte does not come in time", async () => {
    const { run, json } = await headless([{ hang_ms: 3000 }, { text: "after the hang" }], "hi");
    expect(run.code).toBe(0);
    expect(json.final).toBe("after the hang");
    expect(server!.turnsServed()).toBe(2);
  });

  it("retries a stream dropped mid-way and keeps only the complete answer", async () => {
    const { run, json } = await headless(
      [
        { text: "this answer will be cut off in the middle", drop_after_chunks: 2 },
        { text: "complete answer" },
      ],
      "hi",
    );
    expect(run.code).toBe(0);
    expect(json.final).toBe("complete answer");
  });

  it("reports malformed tool arguments to the model and continues", async () => {
    const { run, json } = await headless(
      [{ tool_calls: [{ name: "read_file", raw_arguments: '{"path": "a.txt"' }] }, { text: "sorry, fixed" }],
      "read a.txt",
      [],
      { "a.txt": "x\n" },
    );
    expect(run.code).toBe(0);
    expect(json.final).toBe("sorry, fixed");
    expect(String(openAiMessages(1).find((m) => m.role === "tool")!.content)).toContain("E_INVALID_ARGS");
  });
});

describe("approvals and modes in headless runs", () => {
  it("rejects a medium-risk call under ask_first and tells the model", async () => {
    const { run, ws } = await headless(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "x.txt", contents: "x" } }] },
        { text: "I could not write it." },
      ],
      "write x.txt",
    );
    // Exit 5: the model stopped at the rejection, with no way forward (SPEC §1).
    expect(run.code).toBe(5);
    expect(existsSync(join(ws.root, "x.txt"))).toBe(false);
    expect(String(openAiMessages(1).find((m) => m.role === "tool")!.content)).toContain("E_USER_REJECTED");
  });

  it("offers only read-only tools in ask mode, and no ask_user with no one to answer", async () => {
    await headless([{ text: "It adds numbers." }], "what does add do?", ["--mode", "ask"]);
    const tools = (server!.requests[0]!.body as { tools: { function: { name: string } }[] }).tools;
    expect(tools.map((t) => t.function.name)).toEqual([
      "read_file",
      "list_directory",
      "glob_search",
      "search_files",
      "codebase_search",
      "read_lints",
      "terminal_output",
      "todo_write",
      "task",
      "web_search",
      "web_fetch",
    ]);
  });

  it("prints stream-json events ending with a result line", async () => {
    const { lines } = await headless([{ text: "hello there" }], "hi", [], {}, { format: "stream-json" });
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init", model: "openai:gpt-4.1" });
    // The answer as Claude Code sends it: one assistant message per block, no deltas unasked.
    expect(lines.filter((l) => l.type === "assistant").map((l) => l.message)).toEqual([
      expect.objectContaining({
        role: "assistant",
        content: [{ type: "text", text: "hello there", citations: null }],
      }),
    ]);
    expect(lines.filter((l) => l.type === "stream_event")).toEqual([]);
    expect(lines.at(-1)).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "hello there",
      num_turns: 1,
    });
  });

  it("names in stream-json the rule an always answer would save", async () => {
    const { lines } = await headless(
      [{ tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "npm test" } }] }, { text: "ok" }],
      "run the tests",
      ["--approval-mode", "manual"],
      {},
      { format: "stream-json" },
    );
    expect(lines.find((l) => l.subtype === "approval_required")).toMatchObject({
      tool: "run_terminal_cmd",
      always_rules: ["run_terminal_cmd(npm test *)"],
    });
  });

  it("exits 2 on a bad flag and prints --version", async () => {
    const ws = await makeWorkspace();
    const bad = await runLathe(["--output-format", "xml", "-p", "x"], { home: ws.home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--output-format must be text, json or stream-json");
    const version = await runLathe(["--version"], { home: ws.home });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^lathe \d+\.\d+\.\d+\n$/);
  });

  it("explains how to configure a provider when none is set", async () => {
    const ws = await makeWorkspace();
    const run = await runLathe(["-p", "hi", "--cwd", ws.root], { home: ws.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("ANTHROPIC_API_KEY");
    expect(run.stderr).toContain("--model");
  });

  it("prints the model's stream as stream_event lines with --include-partial-messages", async () => {
    const { lines } = await headless(
      [{ text: "hello there", chunk_delay_ms: 5 }],
      "hi",
      ["--include-partial-messages"],
      {},
      { format: "stream-json" },
    );
    const events = lines.filter((l) => l.type === "stream_event").map((l) => l.event);
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      ...events.filter((event) => event.type === "content_block_delta").map(() => "content_block_delta"),
      "content_block_stop",
      "message_stop",
    ]);
    expect(
      events
        .filter((event) => event.type === "content_block_delta")
        .map((event) => event.delta.text)
        .join(""),
    ).toBe("hello there");
  });

  it("cancels on SIGINT with exit code 4", async () => {
    let sent = false;
    const { run, json } = await headless(
      [{ text: "slow ".repeat(400), chunk_delay_ms: 20 }],
      "hi",
      ["--include-partial-messages"],
      {},
      {
        format: "stream-json",
        onStdout: (text, kill) => {
          if (!sent && text.includes('"content_block_delta"')) {
            sent = true;
            kill("SIGINT");
          }
        },
      },
    );
    expect(run.code).toBe(4);
    expect(json).toMatchObject({
      type: "result",
      subtype: "error_during_execution",
      status: "cancelled",
      is_error: true,
      errors: [expect.stringContaining("ancel")],
    });
  });
});

describe("the git summary of a headless run's first request", () => {
  /** Git with no user or system configuration, and an identity for commits. */
  const git = (cwd: string, ...args: string[]) =>
    execFileSync(
      "git",
      ["-c", "commit.gpgsign=false", "-c", "user.name=Ada", "-c", "user.email=ada@example.com", ...args],
      {
        cwd,
        encoding: "utf8",
        env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
      },
    ).trim();

  async function gitWorkspace() {
    const ws = await makeWorkspace({ "a.txt": "a\n" }, fastLlm);
    git(ws.root, "init", "-q", "-b", "main");
    git(ws.root, "add", "a.txt");
    git(ws.root, "commit", "-q", "-m", "Add the a file");
    writeFileSync(join(ws.root, "draft.txt"), "not committed\n");
    return ws;
  }

  const environmentOf = (index: number) => {
    const system = String(openAiMessages(index)[0]?.content);
    return system.slice(system.indexOf("Git: "), system.indexOf("</environment>"));
  };

  it("shows the branch, the uncommitted files and the commits, read while the run set up", async () => {
    server = await startFakeLlm({ script: { turns: [{ text: "ok" }] } });
    const ws = await gitWorkspace();
    const head = git(ws.root, "log", "-n1", "--format=%h");

    const run = await runLathe(headlessArgs("hello", { root: ws.root, serverUrl: server.url }), {
      home: ws.home,
      env: { OPENAI_API_KEY: fakeKeys.openai },
    });

    expect(run.code).toBe(0);
    expect(environmentOf(0)).toBe(
      `Git: branch main; 1 file with uncommitted changes\nRecent commits:\n- ${head} Add the a file\n`,
    );
  });

  it("is read after a prompt hook that commits, and shows its commit", async () => {
    server = await startFakeLlm({ script: { turns: [{ text: "ok" }] } });
    const ws = await gitWorkspace();
    const commitCommand =
      "git -c commit.gpgsign=false -c user.name=Hook -c user.email=hook@example.com commit -q --allow-empty -m 'Committed by the hook'";
    writeFileSync(
      join(ws.home, "hooks.json"),
      JSON.stringify({
        hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: commitCommand }] }] },
      }),
    );

    const run = await runLathe(headlessArgs("hello", { root: ws.root, serverUrl: server.url }), {
      home: ws.home,
      env: { OPENAI_API_KEY: fakeKeys.openai },
    });

    expect(run.code).toBe(0);
    const [hooked, first] = git(ws.root, "log", "-n2", "--format=%h").split("\n");
    expect(environmentOf(0)).toBe(
      `Git: branch main; 1 file with uncommitted changes\nRecent commits:\n- ${hooked} Committed by the hook\n- ${first} Add the a file\n`,
    );
  });
});
