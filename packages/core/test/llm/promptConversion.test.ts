import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  errorInfo,
  type Message,
  newId,
  type Part,
  type ToolCallPart,
  type ToolResultPart,
} from "@lathe/protocol";
import { type FakeLlm, type FakeTurn, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createModelClient,
  type ModelStreamEvent,
  toProviderPrompt,
  toProviderTools,
} from "../../src/llm/index.js";

function message(role: Message["role"], parts: Part[]): Message {
  return { id: newId(), sessionId: "s", role, parts, createdAt: 0 };
}

function call(
  callId: string,
  providerCallId: string,
  args: unknown,
  raw = JSON.stringify(args),
): ToolCallPart {
  return { type: "tool_call", callId, providerCallId, name: "read_file", arguments: args, rawArguments: raw };
}

function result(
  callId: string,
  providerCallId: string,
  status: ToolResultPart["status"],
  output: string,
): ToolResultPart {
  return { type: "tool_result", callId, providerCallId, name: "read_file", status, output };
}

describe("toProviderPrompt", () => {
  it("sends tool calls and results under short ids of ours, even when the provider reused its id", () => {
    const prompt = toProviderPrompt(
      "system text",
      [
        message("user", [{ type: "text", text: "read both" }]),
        message("assistant", [
          { type: "text", text: "Reading." },
          call("ours-1", "call_same", { path: "a" }),
          call("ours-2", "call_same", { path: "b" }),
        ]),
        message("tool", [
          result("ours-1", "call_same", "success", "A"),
          result("ours-2", "call_same", "error", "boom"),
        ]),
      ],
      { keepReasoning: false },
    );
    expect(prompt).toEqual([
      { role: "system", content: "system text" },
      { role: "user", content: [{ type: "text", text: "read both" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading." },
          { type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "a" } },
          { type: "tool-call", toolCallId: "call_2", toolName: "read_file", input: { path: "b" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            toolName: "read_file",
            output: { type: "text", value: "A" },
          },
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "read_file",
            output: { type: "error-text", value: "boom" },
          },
        ],
      },
    ]);
  });

  it("marks every unsuccessful result as an error", () => {
    const statuses = ["error", "rejected", "blocked", "cancelled"] as const;
    const prompt = toProviderPrompt(
      "",
      [
        message(
          "assistant",
          statuses.map((status) => call(status, "", {})),
        ),
        message(
          "tool",
          statuses.map((status) => ({
            ...result(status, "", status, `${status}!`),
            error: errorInfo("E_TOOL_EXECUTION", "x"),
          })),
        ),
      ],
      { keepReasoning: false },
    );
    expect(prompt[1]).toEqual({
      role: "tool",
      content: statuses.map((status, index) => ({
        type: "tool-result",
        toolCallId: `call_${index + 1}`,
        toolName: "read_file",
        output: { type: "error-text", value: `${status}!` },
      })),
    });
  });

  it("sends {} as the input of a call whose arguments were not a JSON object", () => {
    const prompt = toProviderPrompt(
      "",
      [
        message("assistant", [
          call("c1", "p", undefined, "{not json"),
          call("c2", "p", [1, 2]),
          call("c3", "p", "text"),
        ]),
        message("tool", [
          result("c1", "p", "error", "invalid JSON"),
          result("c2", "p", "error", "not an object"),
          result("c3", "p", "error", "not an object"),
        ]),
      ],
      { keepReasoning: false },
    );
    expect(
      prompt[0]?.role === "assistant" && prompt[0].content.map((p) => p.type === "tool-call" && p.input),
    ).toEqual([{}, {}, {}]);
  });

  it("turns reminders and summaries into user text and drops reasoning unless asked to keep it", () => {
    const messages = [
      message("user", [{ type: "compaction_summary", text: "Earlier: we fixed the build." }]),
      message("user", [
        { type: "text", text: "go on" },
        { type: "system_reminder", text: "Plan mode is on." },
      ]),
      message("assistant", [
        { type: "reasoning", text: "Thinking…" },
        { type: "text", text: "Going on." },
      ]),
    ];
    expect(toProviderPrompt("", messages, { keepReasoning: false })).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Earlier: we fixed the build." },
          { type: "text", text: "go on" },
          { type: "text", text: "<system-reminder>\nPlan mode is on.\n</system-reminder>" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Going on." }] },
    ]);
    expect(toProviderPrompt("", messages, { keepReasoning: true })[1]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "Thinking…" },
        { type: "text", text: "Going on." },
      ],
    });
  });

  it("answers a call left without a result and drops a result left without a call", () => {
    const prompt = toProviderPrompt(
      "",
      [
        message("assistant", [call("lost", "p", { path: "x" })]),
        message("tool", [result("orphan", "p", "success", "stray")]),
        message("user", [{ type: "text", text: "hello again" }]),
      ],
      { keepReasoning: false },
    );
    expect(prompt).toEqual([
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "read_file", input: { path: "x" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            toolName: "read_file",
            output: {
              type: "error-text",
              value: "No result was recorded for this call: the run was interrupted.",
            },
          },
        ],
      },
      { role: "user", content: [{ type: "text", text: "hello again" }] },
    ]);
  });

  it("skips empty text and describes files that travel without their bytes", () => {
    const prompt = toProviderPrompt(
      "",
      [
        message("user", [
          { type: "text", text: "" },
          { type: "file", path: "shot.png", mediaType: "image/png", data: "iVBORw0K" },
          { type: "file", path: "big.pdf", mediaType: "application/pdf" },
        ]),
      ],
      { keepReasoning: false },
    );
    expect(prompt).toEqual([
      {
        role: "user",
        content: [
          { type: "file", data: "iVBORw0K", mediaType: "image/png", filename: "shot.png" },
          { type: "text", text: "[file: big.pdf]" },
        ],
      },
    ]);
  });

  it("offers tools as functions with their JSON schema", () => {
    const schema = { type: "object", properties: { path: { type: "string" } } };
    expect(toProviderTools([{ name: "read_file", description: "Reads.", inputSchema: schema }])).toEqual([
      { type: "function", name: "read_file", description: "Reads.", inputSchema: schema },
    ]);
  });
});

describe("call ids on the wire", () => {
  let server: FakeLlm | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Plays two turns the way the agent does: record the calls under fresh ids, answer them, ask again. */
  async function twoTurns(modelId: string, firstTurn: FakeTurn) {
    server = await startFakeLlm({ script: { turns: [firstTurn, { text: "done" }] } });
    const made = createModelClient({
      modelId,
      baseUrl: `${server.url}/v1`,
      apiKey: "k",
      env: {},
      latheHome: mkdtempSync(join(tmpdir(), "lathe-ids-")),
    });
    if (!made.ok) throw new Error(made.error.message);
    const history: Message[] = [message("user", [{ type: "text", text: "go" }])];
    const stream = async () => {
      const events: ModelStreamEvent[] = [];
      for await (const event of made.client.stream({
        system: "",
        messages: history,
        tools: [],
        signal: AbortSignal.timeout(5_000),
      })) {
        events.push(event);
      }
      return events;
    };
    const calls = (await stream()).flatMap((e) =>
      e.type === "tool_call"
        ? [call(newId(), e.providerCallId, JSON.parse(e.rawArguments), e.rawArguments)]
        : [],
    );
    history.push(message("assistant", calls));
    history.push(
      message(
        "tool",
        calls.map((c, i) => result(c.callId, c.providerCallId, "success", `output ${i}`)),
      ),
    );
    await stream();
    return { calls, body: server.requests[1]!.body };
  }

  it("uses our ids with OpenAI when the provider reused one id for two calls", async () => {
    const { calls, body } = await twoTurns("openai:gpt-4.1", {
      tool_calls: [
        { name: "read_file", arguments: { path: "a" }, id: "call_dup" },
        { name: "read_file", arguments: { path: "b" }, id: "call_dup" },
      ],
    });
    const [first, second] = ["call_1", "call_2"];
    expect(new Set(calls.map((c) => c.callId)).size).toBe(2);
    expect(body).toMatchObject({
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          tool_calls: [
            { id: first, type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } },
            { id: second, type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } },
          ],
        },
        { role: "tool", tool_call_id: first, content: "output 0" },
        { role: "tool", tool_call_id: second, content: "output 1" },
      ],
    });
  });

  it("uses our ids with OpenAI when the provider sent no ids", async () => {
    const { body } = await twoTurns("openai:gpt-4.1", {
      tool_calls: [{ name: "read_file", arguments: { path: "a" }, id: null }],
    });
    expect(body).toMatchObject({
      messages: [{}, { tool_calls: [{ id: "call_1" }] }, { role: "tool", tool_call_id: "call_1" }],
    });
  });

  it("uses our ids with Anthropic", async () => {
    const { calls, body } = await twoTurns("anthropic:claude-sonnet-4-5", {
      tool_calls: [{ name: "read_file", arguments: { path: "a" }, id: "toolu_dup" }],
    });
    const id = "call_1";
    expect(calls[0]!.providerCallId).toBe("toolu_dup");
    expect(body).toMatchObject({
      messages: [
        { role: "user" },
        { role: "assistant", content: [{ type: "tool_use", id, name: "read_file", input: { path: "a" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "output 0" }] },
      ],
    });
  });
});

describe("images from tools", () => {
  const screenshot = {
    ...result("c1", "p1", "success", "Saved screenshot.png"),
    images: [{ mediaType: "image/png", data: "iVBORw0KGgo=" }],
  };
  const history = [message("assistant", [call("c1", "p1", { path: "x" })]), message("tool", [screenshot])];

  it("travel in the tool result to providers that take them", () => {
    const prompt = toProviderPrompt("", history, { keepReasoning: false, imagesInToolResults: true });
    const tool = prompt.find((entry) => entry.role === "tool");
    expect(tool?.content).toEqual([
      {
        type: "tool-result",
        toolCallId: "call_1",
        toolName: "read_file",
        output: {
          type: "content",
          value: [
            { type: "text", text: "Saved screenshot.png" },
            { type: "image-data", data: "iVBORw0KGgo=", mediaType: "image/png" },
          ],
        },
      },
    ]);
  });

  it("stay out of the prompt for the others, which get the text alone", () => {
    const prompt = toProviderPrompt("", history, { keepReasoning: false });
    const tool = prompt.find((entry) => entry.role === "tool");
    expect(tool?.content).toEqual([
      {
        type: "tool-result",
        toolCallId: "call_1",
        toolName: "read_file",
        output: { type: "text", value: "Saved screenshot.png" },
      },
    ]);
  });
});

describe("older tool images", () => {
  it("are sent as text only: the newest screenshot is the one that counts", () => {
    const shot = (id: string) => ({
      ...result(id, id, "success", `Saved ${id}.png`),
      images: [{ mediaType: "image/png", data: `${id}AAAA` }],
    });
    const history = [
      message("assistant", [call("a", "a", { path: "x" })]),
      message("tool", [shot("a")]),
      message("assistant", [call("b", "b", { path: "x" })]),
      message("tool", [shot("b")]),
    ];
    const prompt = toProviderPrompt("", history, { keepReasoning: false, imagesInToolResults: true });
    const outputs = prompt
      .filter((entry) => entry.role === "tool")
      .flatMap((entry) => entry.content.map((part) => (part.type === "tool-result" ? part.output.type : "")));
    expect(outputs).toEqual(["text", "content"]);
  });
});
