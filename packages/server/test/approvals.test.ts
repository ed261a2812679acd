import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pendingApprovalSchema, pendingQuestionSchema, type StreamMessage } from "@lathe/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { ScriptedFactory } from "./scriptedFactory.js";
import { errorCode, startTestServer, type TestServer } from "./serverHarness.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const writeNote = {
  tool_calls: [{ name: "write_file", arguments: { path: "note.txt", contents: "written by the agent\n" } }],
};

async function approvalSession(after: string) {
  current = await startTestServer({
    factory: new ScriptedFactory({ turns: [writeNote, { text: after }], approvalMode: "ask_first" }),
  });
  const t = current;
  const id = await t.openSession();
  const stream = await t.stream(id);
  await t.api("POST", `/api/sessions/${id}/messages`, { text: "write a note" });
  const required = await stream.waitFor((m) => m.type === "approval_required");
  if (required.type !== "approval_required") throw new Error("unreachable");
  return { t, id, stream, required, projectRoot: t.factory.made[0]!.request.projectRoot };
}

const pendingWith = (count: number) => (m: StreamMessage) =>
  m.type === "pending_input" && m.approvals.length === count;

describe("approvals and questions", () => {
  it("an accepted approval lets the call run and the file is written", async () => {
    const { t, id, stream, required, projectRoot } = await approvalSession("Wrote it.");
    expect(required).toMatchObject({ name: "write_file", risk: "medium" });
    const pending = await stream.waitFor(pendingWith(1));
    if (pending.type !== "pending_input") throw new Error("unreachable");
    expect(pendingApprovalSchema.parse(pending.approvals[0])).toMatchObject({
      approvalId: required.approvalId,
      callId: required.callId,
      arguments: { path: "note.txt", contents: "written by the agent\n" },
    });
    const detail = await t.api("GET", `/api/sessions/${id}`);
    expect(detail.body).toMatchObject({
      state: "awaiting_approval",
      pendingApprovals: [{ approvalId: required.approvalId }],
    });
    // A page reloaded now sees the waiting approval on connect.
    const reloaded = await t.stream(id);
    const onConnect = await reloaded.waitFor((m) => m.type === "pending_input");
    expect(onConnect).toMatchObject({ approvals: [{ approvalId: required.approvalId }] });

    const answered = await t.api("POST", `/api/sessions/${id}/approvals/${required.approvalId}`, {
      decision: "accept",
    });
    expect(answered).toEqual({ status: 200, body: { answered: true } });
    await stream.waitFor((m) => m.type === "tool_completed" && m.callId === required.callId);
    await stream.waitFor(pendingWith(0));
    const done = await stream.waitFor((m) => m.type === "run_complete");
    expect(done).toMatchObject({ reason: "completed", final: "Wrote it." });
    expect(readFileSync(join(projectRoot, "note.txt"), "utf8")).toBe("written by the agent\n");

    const twice = await t.api("POST", `/api/sessions/${id}/approvals/${required.approvalId}`, {
      decision: "accept",
    });
    expect(twice.status).toBe(404);
    expect(errorCode(twice)).toBe("E_APPROVAL_NOT_FOUND");
  });

  it("a rejection reaches the model with the user's message and nothing is written", async () => {
    const { t, id, stream, required, projectRoot } = await approvalSession("Understood, I will not.");
    const bad = await t.api("POST", `/api/sessions/${id}/approvals/${required.approvalId}`, {
      decision: "reject",
      always: "user",
    });
    expect(errorCode(bad)).toBe("E_INVALID_ARGS");
    const answered = await t.api("POST", `/api/sessions/${id}/approvals/${required.approvalId}`, {
      decision: "reject",
      message: "Not in this folder.",
    });
    expect(answered.status).toBe(200);
    const rejected = await stream.waitFor((m) => m.type === "tool_rejected");
    expect(rejected).toMatchObject({ callId: required.callId, message: "Not in this folder." });
    expect(await stream.waitFor((m) => m.type === "run_complete")).toMatchObject({ reason: "completed" });
    expect(existsSync(join(projectRoot, "note.txt"))).toBe(false);
    const results = t.factory.made[0]!.session.messages.flatMap((m) => m.parts).filter(
      (p) => p.type === "tool_result",
    );
    expect(results).toMatchObject([
      { status: "rejected", output: expect.stringContaining("Not in this folder.") },
    ]);
  });

  it("accept with always passes the scope through: the rule is saved for the project", async () => {
    const { t, id, stream, required, projectRoot } = await approvalSession("Done.");
    await t.api("POST", `/api/sessions/${id}/approvals/${required.approvalId}`, {
      decision: "accept",
      always: "project-local",
    });
    await stream.waitFor((m) => m.type === "run_complete");
    const settings = readFileSync(join(projectRoot, ".lathe", "settings.local.json"), "utf8");
    expect(JSON.parse(settings)).toMatchObject({
      permissions: { allow: [expect.stringContaining("write_file")] },
    });
  });

  it("cancel withdraws a waiting approval", async () => {
    const { t, id, stream } = await approvalSession("never");
    await stream.waitFor(pendingWith(1));
    await t.api("POST", `/api/sessions/${id}/cancel`);
    expect(await stream.waitFor((m) => m.type === "run_complete")).toMatchObject({ reason: "cancelled" });
    await stream.waitFor(pendingWith(0));
    expect((await t.api("GET", `/api/sessions/${id}`)).body).toMatchObject({ pendingApprovals: [] });
  });

  it("the model's questions wait for answers posted over HTTP", async () => {
    current = await startTestServer({
      factory: new ScriptedFactory({
        turns: [
          {
            tool_calls: [
              {
                name: "ask_user",
                arguments: {
                  questions: [
                    { question: "Which database?", options: ["SQLite", "Postgres"] },
                    { question: "Port?" },
                  ],
                },
              },
            ],
          },
          { text: "Thanks." },
        ],
      }),
    });
    const t = current;
    const id = await t.openSession();
    const stream = await t.stream(id);
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "set up the db" });
    const announced = await stream.waitFor((m) => m.type === "user_question");
    const asked = await stream.waitFor((m) => m.type === "pending_input" && m.questions.length === 1);
    if (asked.type !== "pending_input") throw new Error("unreachable");
    const question = pendingQuestionSchema.parse(asked.questions[0]);
    // The event names the question the pending list holds and the answers go to.
    expect(announced).toMatchObject({
      type: "user_question",
      questionId: question.questionId,
      callId: question.callId,
      questions: question.questions,
    });
    expect(question.questions).toEqual([
      { question: "Which database?", options: ["SQLite", "Postgres"] },
      { question: "Port?" },
    ]);
    expect((await t.api("GET", `/api/sessions/${id}`)).body).toMatchObject({
      pendingQuestions: [{ questionId: question.questionId, callId: question.callId }],
    });

    const short = await t.api("POST", `/api/sessions/${id}/questions/${question.questionId}`, {
      answers: ["SQLite"],
    });
    expect(short.status).toBe(400);
    const answered = await t.api("POST", `/api/sessions/${id}/questions/${question.questionId}`, {
      answers: ["SQLite", "5432"],
    });
    expect(answered).toEqual({ status: 200, body: { answered: true } });
    const completed = await stream.waitFor(
      (m) => m.type === "tool_completed" && m.callId === question.callId,
    );
    expect(completed).toMatchObject({ output: expect.stringContaining("Answer: 5432") });
    expect(await stream.waitFor((m) => m.type === "run_complete")).toMatchObject({ reason: "completed" });
    const unknown = await t.api("POST", `/api/sessions/${id}/questions/${question.questionId}`, {
      answers: ["x", "y"],
    });
    expect(errorCode(unknown)).toBe("E_QUESTION_NOT_FOUND");
  });
});
