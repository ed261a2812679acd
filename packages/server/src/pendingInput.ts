import type { AgentSessionOptions, ApprovalAnswer, UserQuestions } from "@lathe/core";
import type { PendingApproval, PendingQuestion } from "@lathe/protocol";
import { errorInfo } from "@lathe/protocol";

type QuestionAnswer = Awaited<ReturnType<UserQuestions["ask"]>>;

/** Requests that wait for a person, by id; each settles once, by an answer or by its signal. */
class Waiters<R, A> {
  private readonly entries = new Map<string, { record: R; settle(answer: A): void }>();

  constructor(private readonly changed: () => void) {}

  wait(id: string, record: R, signal: AbortSignal, onAbort: A): Promise<A> {
    if (signal.aborted) return Promise.resolve(onAbort);
    return new Promise<A>((resolve) => {
      const settle = (answer: A) => {
        if (!this.entries.delete(id)) return;
        signal.removeEventListener("abort", aborted);
        resolve(answer);
        this.changed();
      };
      // A cancelled run or a timed-out approval takes the request off the list clients see.
      const aborted = () => settle(onAbort);
      signal.addEventListener("abort", aborted, { once: true });
      this.entries.set(id, { record, settle });
      this.changed();
    });
  }

  get(id: string): R | undefined {
    return this.entries.get(id)?.record;
  }

  answer(id: string, answer: A): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    entry.settle(answer);
    return true;
  }

  records(): R[] {
    return [...this.entries.values()].map((entry) => entry.record);
  }

  settleAll(answer: A): void {
    for (const entry of [...this.entries.values()]) entry.settle(answer);
  }
}

export type QuestionOutcome = "answered" | "not_found" | "wrong_count";

/**
 * The approvals and questions of one session that wait for the user. The engine calls the two
 * handlers; HTTP answers settle them. Clients learn of them from the `approval_required` and
 * `user_question` events, and of what is still waiting from `pending_input` messages and
 * `GET /api/sessions/:id`.
 */
export class PendingInput {
  /** Called whenever a request is added or settled. */
  onChange: () => void = () => {};
  private readonly approvals = new Waiters<PendingApproval, ApprovalAnswer>(() => this.onChange());
  private readonly questions = new Waiters<PendingQuestion, QuestionAnswer>(() => this.onChange());

  readonly requestApproval: NonNullable<AgentSessionOptions["requestApproval"]> = (request, signal) =>
    this.approvals.wait(request.approvalId, { ...request, requestedAt: Date.now() }, signal, {
      decision: "reject",
      message: "The approval request was withdrawn.",
    });

  readonly askUser: NonNullable<AgentSessionOptions["askUser"]> = (questions, context) => {
    const { questionId } = context;
    const record: PendingQuestion = {
      questionId,
      callId: context.callId,
      questions: questions.map((item) => ({
        question: item.question,
        options: item.options ? [...item.options] : undefined,
      })),
      askedAt: Date.now(),
    };
    return this.questions.wait(questionId, record, context.signal, {
      ok: false,
      error: errorInfo("E_CANCELLED", "The question was withdrawn before the user answered."),
    });
  };

  answerApproval(approvalId: string, answer: ApprovalAnswer): boolean {
    return this.approvals.answer(approvalId, answer);
  }

  answerQuestion(questionId: string, answers: string[]): QuestionOutcome {
    const record = this.questions.get(questionId);
    if (!record) return "not_found";
    if (answers.length !== record.questions.length) return "wrong_count";
    this.questions.answer(questionId, { ok: true, answers });
    return "answered";
  }

  snapshot(): { approvals: PendingApproval[]; questions: PendingQuestion[] } {
    return { approvals: this.approvals.records(), questions: this.questions.records() };
  }

  /** The session is closing: nobody will answer what is still waiting. */
  withdrawAll(): void {
    this.approvals.settleAll({ decision: "reject", message: "The session was closed." });
    this.questions.settleAll({
      ok: false,
      error: errorInfo("E_CANCELLED", "The session was closed before the user answered."),
    });
  }
}
