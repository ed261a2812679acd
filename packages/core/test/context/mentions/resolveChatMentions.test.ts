import path from "node:path";
import { type Message, newId, type Part, type Role } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveMentions } from "../../../src/context/mentions/resolveMentions.js";
import { SessionStore } from "../../../src/store/sessionStore.js";
import { type ContextTestBed, countTokens, createContextTestBed } from "../dynamic/contextTestBed.js";
import { mention, sourcesFor } from "./mentionTestBed.js";

let bed: ContextTestBed;
let store: SessionStore;
beforeEach(() => {
  bed = createContextTestBed();
  const opened = SessionStore.open(path.join(bed.outside, "lathe.db"));
  if (!opened.ok) throw new Error(opened.error.message);
  store = opened.value;
});
afterEach(() => {
  store.close();
  bed.cleanup();
});

const sessionId = "0197a1b2-0000-7000-8000-00000000abcd";
let clock = 1_750_000_000_000;
function message(role: Role, parts: Part[]): Message {
  clock += 1000;
  return { id: newId(clock), sessionId, role, parts, createdAt: clock };
}

function pastSession(turns: number): void {
  const messages: Message[] = [message("user", [{ type: "text", text: "Fix the flaky test" }])];
  messages.push(
    message("assistant", [
      { type: "reasoning", text: "thinking about it" },
      { type: "text", text: "Reading the test first." },
      {
        type: "tool_call",
        callId: "c1",
        providerCallId: "p1",
        name: "read_file",
        arguments: { path: "a.test.ts" },
        rawArguments: '{"path":"a.test.ts"}',
      },
    ]),
    message("tool", [
      {
        type: "tool_result",
        callId: "c1",
        providerCallId: "p1",
        name: "read_file",
        status: "success",
        output: "file text",
      },
    ]),
  );
  for (let turn = 1; turn <= turns; turn++) {
    messages.push(message("user", [{ type: "text", text: `question ${turn}` }]));
    messages.push(message("assistant", [{ type: "text", text: `answer ${turn}` }]));
  }
  store.ensureSession({ id: sessionId, projectRoot: bed.root, mode: "agent", model: "m" }, messages);
}

describe("@chat", () => {
  it("attaches what the user and the assistant said, found by an id prefix", async () => {
    pastSession(1);
    const result = await resolveMentions([mention("chat", "0197a1b2")], sourcesFor(bed.root, { store }));
    expect(result.attachments.map(({ title, text }) => [title, text])).toEqual([
      [
        `chat "Fix the flaky test" (${sessionId})`,
        "User: Fix the flaky test\n\nAssistant: Reading the test first.\n\nUser: question 1\n\nAssistant: answer 1",
      ],
    ]);
  });

  it("keeps the first message and the newest ones when the session is long", async () => {
    pastSession(200);
    const result = await resolveMentions(
      [mention("chat", sessionId)],
      sourcesFor(bed.root, { store, maxTokensPerMention: 60 }),
    );
    const { text, tokens } = result.attachments[0]!;
    expect(tokens).toBeLessThanOrEqual(60);
    expect(tokens).toBe(countTokens(text));
    expect(text).toMatch(/^User: Fix the flaky test\n\n\[… \d+ earlier messages not shown\]\n\n/);
    expect(text.endsWith("User: question 200\n\nAssistant: answer 200")).toBe(true);
  });

  it("reports an unknown session and a missing store", async () => {
    pastSession(0);
    const unknown = await resolveMentions([mention("chat", "ffff")], sourcesFor(bed.root, { store }));
    expect(unknown.errors.map(({ error }) => [error.code, error.message])).toEqual([
      ["E_SESSION_NOT_FOUND", 'No session has the id "ffff".'],
    ]);
    const noStore = await resolveMentions([mention("chat", sessionId)], sourcesFor(bed.root));
    expect(noStore.errors.map(({ error }) => error.code)).toEqual(["E_STORAGE"]);
  });
});
