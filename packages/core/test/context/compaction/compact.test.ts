import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, type FakeTurn, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { compact } from "../../../src/context/compaction/compact.js";
import {
  type CompactionState,
  emptyCompactionState,
  viewForRequest,
} from "../../../src/context/compaction/viewForRequest.js";
import { countTokens } from "../../../src/context/tokens/countTokens.js";
import { TokenLedger } from "../../../src/context/tokens/tokenLedger.js";
import { createModelClient, type ModelClient } from "../../../src/llm/index.js";
import { filler, HistoryBuilder } from "./historyBuilder.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const latheHome = mkdtempSync(join(tmpdir(), "lathe-compaction-"));
const request = { system: "You are Lathe, a coding agent.", toolsJson: '[{"name":"read_file"}]' };
const snapshot =
  "## Goal\nAdd a users table.\n\n## Decisions\n- SQLite.\n\n## Files touched\n- src/db.ts\n\n## Open todos\n- tests\n\n## Next step\nWrite the migration test.";
const preamble =
  "[Summary of the earlier conversation] Earlier messages of this session were replaced by this snapshot to save context; the messages after it are verbatim.";

/** The fast model, over real HTTP to the scripted server. */
async function summarizer(turns: FakeTurn[]): Promise<ModelClient> {
  server = await startFakeLlm({ script: { turns } });
  const made = createModelClient({
    modelId: "openai:gpt-4.1-mini",
    baseUrl: `${server.url}/v1`,
    apiKey: "test-key",
    env: {},
    latheHome,
  });
  if (!made.ok) throw new Error(made.error.message);
  return made.client;
}

function base(history: HistoryBuilder, ledger: TokenLedger, state: CompactionState = emptyCompactionState()) {
  return {
    history: history.messages,
    state,
    ledger,
    request,
    signal: new AbortController().signal,
    sessionId: "s1",
  };
}

/** A conversation without tool calls, so only a summary can shorten it: ~900 tokens a round. */
function longChat(rounds: number): HistoryBuilder {
  const h = new HistoryBuilder().user(`Goal: add a users table. ${filler(100, 99)}`);
  for (let i = 0; i < rounds; i++) h.assistant(filler(300, i * 2 + 1)).user(filler(600, i * 2 + 2));
  return h;
}

function bodyOf(index: number): { messages: { role: string; content: unknown }[]; max_tokens?: number } {
  return server!.requests[index]!.body as {
    messages: { role: string; content: unknown }[];
    max_tokens?: number;
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return (content as { text: string }[]).map((part) => part.text).join("");
}

describe("compact", () => {
  it("returns undefined when the next request stays under the threshold", async () => {
    const h = new HistoryBuilder().user("hi").assistant("hello");
    expect(await compact({ ...base(h, new TokenLedger()), settings: { window: 100_000 } })).toBeUndefined();
  });

  it("prunes old tool outputs and stops there when that is enough", async () => {
    const h = new HistoryBuilder().user("read everything");
    for (let i = 1; i <= 6; i++) h.toolRound("read_file", { path: `src/f${i}.ts` }, filler(3000, i));
    h.assistant("I have read them all.").user("now summarize f6");
    const ledger = new TokenLedger();
    const model = await summarizer([]);
    const before = ledger.estimateRequest({ ...request, messages: h.messages });
    expect(before).toBeGreaterThan(16_000);
    const outputTokens = (index: number) => ledger.partTokens(h.messages[index]!.parts[0]!);
    const newestTwo = outputTokens(10) + outputTokens(12);

    const result = await compact({
      ...base(h, ledger),
      settings: { window: 20_000, keepToolOutputTokens: newestTwo + 100 },
      summarizer: model,
    });

    // The newest two outputs fit in what is kept; the four older ones become notes.
    const pruned = [...result!.state.pruned.keys()].sort();
    expect(pruned).toEqual(["c1", "c2", "c3", "c4"]);
    const view = viewForRequest(h.messages, result!.state);
    const tokensAfter = ledger.estimateRequest({ ...request, messages: view });
    expect(result!.report).toEqual({
      tokensBefore: before,
      tokensAfter,
      prunedOutputs: 4,
      summarized: false,
    });
    expect(tokensAfter).toBeLessThan(16_000);
    expect(result!.summaryMessage).toBeUndefined();
    expect(server!.requests).toHaveLength(0);
    const note = view[2]!.parts[0]!;
    expect(note.type === "tool_result" && note.output).toBe(
      `[output of read_file src/f1.ts cut to save context (${result!.state.pruned.get("c1")!.toLocaleString("en-US")} tokens); call the tool again if you need it]`,
    );
    expect(result!.state.pruned.get("c1")).toBe(outputTokens(2));
  });

  it("never prunes outputs the model has not seen yet, and keeps earlier pruning", async () => {
    const h = new HistoryBuilder().user("go");
    h.toolRound("read_file", { path: "old.ts" }, filler(2000, 1));
    h.toolRound("read_file", { path: "mid.ts" }, filler(2000, 2));
    h.toolRound("read_file", { path: "new.ts" }, filler(9000, 3)); // the latest result, not answered yet
    const ledger = new TokenLedger();
    const result = await compact({
      ...base(h, ledger, { pruned: new Map([["c1", 2004]]) }),
      settings: { window: 14_000, keepToolOutputTokens: 7_000 },
    });
    expect([...result!.state.pruned]).toEqual([
      ["c1", 2004],
      ["c2", ledger.partTokens(h.messages[4]!.parts[0]!)],
    ]);
    expect(result!.report.prunedOutputs).toBe(1);
  });

  it("summarizes the head with the fast model, within its input bound and with the focus", async () => {
    const h = longChat(20);
    const ledger = new TokenLedger();
    const model = await summarizer([{ text: snapshot }]);
    const settings = { window: 20_000, maxSummarizerInputTokens: 3_000 };
    const result = await compact({
      ...base(h, ledger),
      settings,
      summarizer: model,
      focus: "the database schema",
    });

    expect(server!.requests).toHaveLength(1);
    const body = bodyOf(0);
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const system = textOf(body.messages[0]!.content);
    const user = textOf(body.messages[1]!.content);
    expect(system).toContain("## Files touched");
    expect(user).toContain("The user asked the summary to focus on: the database schema");
    expect(user).toContain("Goal: add a users table.");
    expect(user).toMatch(
      /\[… \d+ messages \([\d,]+ tokens\) from the middle of this part of the conversation are left out …\]/,
    );
    const sent = countTokens(system) + countTokens(user);
    expect(sent).toBeLessThanOrEqual(3_000);
    expect(sent).toBeGreaterThan(2_500);
    expect(body.max_tokens).toBe(4096);

    const summary = result!.summaryMessage!;
    const view = viewForRequest([...h.messages, summary], result!.state);
    const tail = view.slice(1);
    const through = h.messages.findIndex((m) => m.id === tail[0]!.id) - 1;
    expect(summary).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      sessionId: "s1",
      role: "user",
      parts: [
        { type: "compaction_summary", text: `${preamble}\n\n${snapshot}`, replacesThrough: h.id(through) },
      ],
      createdAt: expect.any(Number),
    });
    expect(view[0]).toBe(summary);
    expect(tail).toEqual(h.messages.slice(through + 1));
    // The tail is the newest ~30% of the messages' tokens.
    const total = ledger.historyTokens(h.messages);
    expect(ledger.historyTokens(tail)).toBeGreaterThanOrEqual(total * 0.3);
    expect(ledger.historyTokens(tail)).toBeLessThan(total * 0.3 + 1000);
    expect(result!.report).toEqual({
      tokensBefore: ledger.estimateRequest({ ...request, messages: h.messages }),
      tokensAfter: ledger.estimateRequest({ ...request, messages: view }),
      prunedOutputs: 0,
      summarized: true,
      summaryTokens: ledger.messageTokens(summary),
    });
  });

  it("discards a summary larger than what it replaces", async () => {
    const h = longChat(20);
    const ledger = new TokenLedger();
    const model = await summarizer([{ text: filler(15_000, 7) }]);
    const result = await compact({ ...base(h, ledger), settings: { window: 20_000 }, summarizer: model });
    expect(server!.requests).toHaveLength(1);
    expect(result!.summaryMessage).toBeUndefined();
    const tokens = ledger.estimateRequest({ ...request, messages: h.messages });
    expect(result!.report).toEqual({
      tokensBefore: tokens,
      tokensAfter: tokens,
      prunedOutputs: 0,
      summarized: false,
    });
  });

  it("summarizes under the threshold when forced (/compact)", async () => {
    const h = longChat(3);
    const model = await summarizer([{ text: "## Goal\nx" }]);
    const result = await compact({
      ...base(h, new TokenLedger()),
      settings: { window: 200_000 },
      summarizer: model,
      force: true,
    });
    expect(result!.report.summarized).toBe(true);
    expect(result!.summaryMessage!.parts[0]).toMatchObject({ type: "compaction_summary" });
  });

  it("keeps the pruning and reports the error when the summarizer fails", async () => {
    const h = longChat(20);
    const model = await summarizer([{ error: { status: 400, message: "bad request" } }]);
    const result = await compact({
      ...base(h, new TokenLedger()),
      settings: { window: 20_000 },
      summarizer: model,
    });
    expect(result!.report.summarized).toBe(false);
    expect(result!.summaryMessage).toBeUndefined();
    expect(result!.report.summaryError).toMatchObject({ code: "E_LLM_ERROR" });
    expect(result!.report.summaryError!.message).toContain("bad request");
  });

  it("throws when cancelled", async () => {
    const h = longChat(20);
    const model = await summarizer([{ text: snapshot }]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      compact({
        ...base(h, new TokenLedger()),
        settings: { window: 20_000 },
        summarizer: model,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
  });
});
