import { type EventDraft, errorInfo } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { askUserTool } from "../../src/tools/builtin/askUser/askUser.js";
import type { ToolContext, ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import type { UserQuestions } from "../../src/tools/toolServices.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const registry = new ToolRegistry([askUserTool]);

async function call(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const validated = registry.validate("ask_user", JSON.stringify(args));
  if (!validated.ok) throw new Error(validated.error.message);
  return runTool(validated.tool, validated.args, ctx);
}

type Asked = Parameters<UserQuestions["ask"]>;

/** A user who answers from a script and remembers what they were asked. */
function scriptedUser(answers: string[]): UserQuestions & { asked: Asked[] } {
  const asked: Asked[] = [];
  return {
    asked,
    ask: async (questions, context) => {
      asked.push([questions, context]);
      return { ok: true, answers };
    },
  };
}

describe("ask_user", () => {
  it("returns each question with its answer", async () => {
    const user = scriptedUser(["PostgreSQL", "Yes, keep the old endpoint for a release"]);
    const emitted: EventDraft[] = [];
    const ctx = {
      ...bed.context({ callId: "call-7" }),
      questions: user,
      emitEvent: (draft: EventDraft) => emitted.push(draft),
    };
    const result = await call(
      {
        questions: [
          { question: "Which database?", options: ["PostgreSQL", "SQLite"] },
          { question: "Keep the old endpoint?" },
        ],
      },
      ctx,
    );
    expect(outputOf(result)).toBe(
      [
        "Question 1: Which database?\nAnswer: PostgreSQL",
        "Question 2: Keep the old endpoint?\nAnswer: Yes, keep the old endpoint for a release",
      ].join("\n\n"),
    );
    expect(result.ok && result.metadata).toEqual({
      answers: ["PostgreSQL", "Yes, keep the old endpoint for a release"],
    });
    const [questions, context] = user.asked[0]!;
    expect(questions).toEqual([
      { question: "Which database?", options: ["PostgreSQL", "SQLite"] },
      { question: "Keep the old endpoint?" },
    ]);
    expect(context.callId).toBe("call-7");
    expect(context.signal.aborted).toBe(false);
    // The question is announced on the stream under the id its answers will come back to.
    expect(emitted).toEqual([
      { type: "user_question", questionId: context.questionId, callId: "call-7", questions },
    ]);
  });

  it("marks questions left unanswered", async () => {
    const ctx = { ...bed.context(), questions: scriptedUser(["  "]) };
    expect(outputOf(await call({ questions: [{ question: "A?" }, { question: "B?" }] }, ctx))).toBe(
      "Question 1: A?\nAnswer: (no answer)\n\nQuestion 2: B?\nAnswer: (no answer)",
    );
  });

  it("fails with advice in headless runs, where no one can answer", async () => {
    expect(
      errorOf(await call({ questions: [{ question: "Which database?" }] }, bed.context())),
    ).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message:
        "No one can answer questions in this run (headless). Decide yourself and say what you assumed, or stop and report what you need.",
    });
  });

  it("passes on the user's refusal", async () => {
    const questions: UserQuestions = {
      ask: async () => ({
        ok: false,
        error: errorInfo("E_USER_REJECTED", "The user dismissed the questions."),
      }),
    };
    expect(
      errorOf(await call({ questions: [{ question: "A?" }] }, { ...bed.context(), questions })),
    ).toMatchObject({
      code: "E_USER_REJECTED",
      message: "The user dismissed the questions.",
    });
  });

  it("stops waiting when the run is cancelled", async () => {
    const controller = new AbortController();
    const questions: UserQuestions = {
      ask: (_questions, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () =>
            resolve({ ok: false, error: errorInfo("E_CANCELLED", "The questions were withdrawn.") }),
          );
        }),
    };
    const pending = call(
      { questions: [{ question: "A?" }] },
      { ...bed.context({ signal: controller.signal }), questions },
    );
    controller.abort();
    expect(errorOf(await pending).code).toBe("E_CANCELLED");
  });

  it("takes 1 to 4 questions with 2 to 6 options", () => {
    const valid = (args: unknown) => registry.validate("ask_user", JSON.stringify(args)).ok;
    const q = (options?: string[]) => ({ question: "Which?", options });
    expect(valid({ questions: [] })).toBe(false);
    expect(valid({ questions: [q(), q(), q(), q()] })).toBe(true);
    expect(valid({ questions: [q(), q(), q(), q(), q()] })).toBe(false);
    expect(valid({ questions: [q(["a"])] })).toBe(false);
    expect(valid({ questions: [q(["a", "b", "c", "d", "e", "f"])] })).toBe(true);
    expect(valid({ questions: [q(["a", "b", "c", "d", "e", "f", "g"])] })).toBe(false);
    expect(valid({ questions: [{ question: "  " }] })).toBe(false);
    expect(askUserTool.kind).toBe("think");
    expect(askUserTool.risk({ questions: [{ question: "A?" }] }, { projectRoot: bed.projectRoot })).toBe(
      "safe",
    );
  });
});
