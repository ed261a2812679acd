import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Options, query, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace } from "./latheProcess.js";

// The Claude Agent SDK drives the real `lathe` as it drives Claude Code: it starts the executable
// it is given with its own flags, and talks stream-json and the control protocol over stdio.
const lathe = fileURLToPath(new URL("../bin/lathe", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sdkOptions(
  turns: FakeTurn[],
  files: Record<string, string> = { "README.md": "# A project\n" },
) {
  server = await startFakeLlm({ script: { turns } });
  const ws = await makeWorkspace(files);
  const env: Record<string, string | undefined> = { ...process.env, LATHE_HOME: ws.home, HOME: ws.home };
  for (const key of Object.keys(env)) if (/_API_KEY$/.test(key) || key === "LATHE_MODEL") delete env[key];
  env.OPENAI_API_KEY = fakeKeys.openai;
  const stderr: string[] = [];
  const options: Options = {
    pathToClaudeCodeExecutable: lathe,
    cwd: ws.root,
    model: "openai:gpt-4.1",
    env,
    extraArgs: { "base-url": `${server.url}/v1` },
    stderr: (text) => stderr.push(text),
  };
  return { ws, options, stderr, server };
}

async function collect(messages: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const seen: SDKMessage[] = [];
  for await (const message of messages) seen.push(message);
  return seen;
}

/**
 * Each line of the SDK's own types, checked against them by the TypeScript compiler: assignable to
 * `SDKMessage` (fields of Lathe's own beside the SDK's are allowed, as structural typing allows).
 */
async function typeCheck(lines: SDKMessage[], name: string): Promise<string> {
  const dir = join(repoRoot, "test-output", "agent-sdk");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    [
      `import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";`,
      "type DeepReadonly<T> = T extends (infer E)[] ? readonly DeepReadonly<E>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;",
      `const printed = ${JSON.stringify(lines, null, 2)} as const;`,
      "export const lines: readonly DeepReadonly<SDKMessage>[] = printed;",
      "",
    ].join("\n"),
  );
  const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
  try {
    await promisify(execFile)(process.execPath, [
      tsc,
      "--noEmit",
      "--strict",
      "--skipLibCheck",
      "--target",
      "es2022",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      file,
    ]);
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

const requestBody = (fake: FakeLlm, index: number) =>
  fake.requests[index]?.body as {
    model: string;
    messages: { role: string; content: unknown }[];
    tools?: { function: { name: string } }[];
  };

describe("lathe driven by the Claude Agent SDK", () => {
  it("answers a string prompt with init, the tool call and its result as messages, then a result", async () => {
    const { options, stderr } = await sdkOptions([
      { text: "Let me read it.", tool_calls: [{ name: "read_file", arguments: { path: "README.md" } }] },
      { text: "It says: a project." },
    ]);
    const messages = await collect(query({ prompt: "What does the README say?", options }));
    const types = messages.map((m) => `${m.type}${"subtype" in m ? `/${m.subtype}` : ""}`);
    expect(types).toEqual(["system/init", "assistant", "assistant", "user", "assistant", "result/success"]);
    const init = messages[0] as Extract<SDKMessage, { type: "system"; subtype: "init" }>;
    expect(init.model).toBe("openai:gpt-4.1");
    expect(init.permissionMode).toBe("default");
    expect(init.tools).toContain("read_file");
    const toolUse = messages.find(
      (m) => m.type === "assistant" && m.message.content.some((block) => block.type === "tool_use"),
    ) as Extract<SDKMessage, { type: "assistant" }>;
    const block = toolUse.message.content[0] as { type: string; id: string; name: string; input: unknown };
    expect([block.name, block.input]).toEqual(["read_file", { path: "README.md" }]);
    const toolResult = messages.find((m) => m.type === "user") as Extract<SDKMessage, { type: "user" }>;
    expect(toolResult.message.content).toEqual([
      { type: "tool_result", tool_use_id: block.id, content: "     1|# A project", is_error: false },
    ]);
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result"; subtype: "success" }>;
    expect([result.result, result.num_turns, result.is_error]).toEqual(["It says: a project.", 2, false]);
    expect(new Set(messages.map((m) => (m as { session_id: string }).session_id)).size).toBe(1);
    // Every line, Lathe's own events left out when the SDK drives it.
    expect(await typeCheck(messages, "stringPrompt")).toBe("");
    expect(stderr.join("")).toBe("");
  });

  it("asks canUseTool about an edit the policy asks about, and its denial reaches the model", async () => {
    // Lathe's manual approval mode (its own flag, through the SDK's extraArgs) asks about every edit.
    const {
      options,
      server: fake,
      ws,
    } = await sdkOptions(
      [
        { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hello\n" } }] },
        { text: "Understood, I left it." },
      ],
      { "README.md": "# A project\n" },
    );
    const asked: { tool: string; input: unknown }[] = [];
    const messages = await collect(
      query({
        prompt: "Write notes.md",
        options: {
          ...options,
          extraArgs: { ...options.extraArgs, "approval-mode": "manual" },
          canUseTool: async (tool, input) => {
            asked.push({ tool, input });
            return { behavior: "deny", message: "Not in this folder, please." };
          },
        },
      }),
    );
    expect(asked).toEqual([{ tool: "write_file", input: { path: "notes.md", contents: "hello\n" } }]);
    const toolResult = messages.find((m) => m.type === "user") as Extract<SDKMessage, { type: "user" }>;
    expect(toolResult.message.content).toEqual([
      expect.objectContaining({
        type: "tool_result",
        is_error: true,
        content: expect.stringContaining("Not in this folder, please."),
      }),
    ]);
    expect(JSON.stringify(requestBody(fake, 1).messages)).toContain("Not in this folder, please.");
    expect(() => readFileSync(join(ws.root, "notes.md"))).toThrow();
    expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success" });
  });

  it("takes allowedTools in Claude Code's tool names as Lathe's allow rules", async () => {
    const { options } = await sdkOptions([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo allowed" } }] },
      { text: "ran it" },
    ]);
    const asked: string[] = [];
    const messages = await collect(
      query({
        prompt: "Say it",
        options: {
          ...options,
          extraArgs: { ...options.extraArgs, "approval-mode": "manual" },
          allowedTools: ["Bash(echo allowed:*)"],
          canUseTool: async (tool) => {
            asked.push(tool);
            return { behavior: "deny", message: "no" };
          },
        },
      }),
    );
    expect(asked).toEqual([]);
    const toolResult = messages.find((m) => m.type === "user") as Extract<SDKMessage, { type: "user" }>;
    expect(toolResult.message.content).toEqual([
      expect.objectContaining({
        type: "tool_result",
        is_error: false,
        content: expect.stringContaining("allowed"),
      }),
    ]);
  });

  it("adds the SDK's appended system prompt to Lathe's own", async () => {
    const { options, server: fake } = await sdkOptions([{ text: "Bonjour." }]);
    await collect(
      query({
        prompt: "Say hello",
        options: {
          ...options,
          systemPrompt: { type: "preset", preset: "claude_code", append: "Answer in French." },
        },
      }),
    );
    const system = requestBody(fake, 0).messages.filter((message) => message.role === "system");
    expect(JSON.stringify(system)).toContain("Answer in French.");
  });

  it("stops a running command on interrupt()", async () => {
    const { options } = await sdkOptions([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "sleep 30" } }] },
      { text: "never asked for" },
    ]);
    const started = Date.now();
    const run = query({
      prompt: "Wait a while",
      options: { ...options, permissionMode: "bypassPermissions" },
    });
    const messages: SDKMessage[] = [];
    for await (const message of run) {
      messages.push(message);
      if (
        message.type === "assistant" &&
        message.message.content.some((block) => block.type === "tool_use")
      ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await run.interrupt();
      }
    }
    expect(Date.now() - started).toBeLessThan(15_000);
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
    expect([result.type, result.subtype, result.is_error]).toEqual([
      "result",
      "error_during_execution",
      true,
    ]);
    expect((result as { errors: string[] }).errors.length).toBeGreaterThan(0);
  });

  it("runs two streamed user messages as two turns of one process, with the model and mode set between them", async () => {
    const { options, server: fake } = await sdkOptions([
      { text: "First answer." },
      { text: "Second answer." },
    ]);
    let firstDone!: () => void;
    const firstResult = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    let run!: ReturnType<typeof query>;
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield {
        type: "user",
        message: { role: "user", content: "One." },
        parent_tool_use_id: null,
        session_id: "",
      };
      await firstResult;
      await run.setModel("openai:gpt-4.1-mini");
      await run.setPermissionMode("plan");
      yield {
        type: "user",
        message: { role: "user", content: "Two." },
        parent_tool_use_id: null,
        session_id: "",
      };
    }
    run = query({ prompt: prompts(), options });
    const messages: SDKMessage[] = [];
    for await (const message of run) {
      messages.push(message);
      if (message.type === "result") {
        if (messages.filter((m) => m.type === "result").length === 1) firstDone();
        else break;
      }
    }
    const results = messages.filter((m) => m.type === "result") as Extract<
      SDKMessage,
      { type: "result"; subtype: "success" }
    >[];
    expect(results.map((r) => r.result)).toEqual(["First answer.", "Second answer."]);
    expect(results[0]!.session_id).toBe(results[1]!.session_id);
    expect(fake.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      "gpt-4.1",
      "gpt-4.1-mini",
    ]);
    const offered = (index: number) =>
      (requestBody(fake, index).tools ?? []).map((tool) => tool.function.name);
    expect(offered(0)).toContain("write_file");
    expect(offered(1)).not.toContain("write_file");
    expect(await typeCheck(messages, "streamedInput")).toBe("");
  });

  it("ends at maxTurns with the matching result", async () => {
    const { options } = await sdkOptions([
      { tool_calls: [{ name: "list_directory", arguments: {} }] },
      { tool_calls: [{ name: "read_file", arguments: { path: "README.md" } }] },
      { text: "done" },
    ]);
    const messages = await collect(query({ prompt: "Look around", options: { ...options, maxTurns: 1 } }));
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
    expect([result.type, result.subtype, result.is_error]).toEqual(["result", "error_max_turns", true]);
  });

  it("says which input line it could not read, skips it, and goes on with the next", async () => {
    const { options } = await sdkOptions([{ text: "Fine." }]);
    const child = spawn(
      lathe,
      [
        "--output-format=stream-json",
        "--input-format=stream-json",
        "--model=openai:gpt-4.1",
        `--base-url=${(options.extraArgs as Record<string, string>)["base-url"]}`,
        "--cwd",
        options.cwd as string,
      ],
      { env: options.env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stdin.write("{not json\n");
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: 42 } })}\n`);
    child.stdin.end(`${JSON.stringify({ type: "user", message: { role: "user", content: "Hello." } })}\n`);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; subtype?: string; code?: string; content?: string });
    expect(code).toBe(0);
    expect(
      lines
        .filter((line) => line.subtype === "informational")
        .map((line) => [line.code, line.content?.slice(0, 30)]),
    ).toEqual([
      ["E_INVALID_INPUT", "An input line is not JSON: Exp"],
      ["E_INVALID_INPUT", "A user message needs message.c"],
    ]);
    expect(lines.filter((line) => line.type === "result")).toEqual([
      expect.objectContaining({ subtype: "success", result: "Fine." }),
    ]);
  });
});
