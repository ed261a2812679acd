import type { PendingQuestion } from "@lathe/protocol";
import { useState } from "react";

/** Questions the model asked with `ask_user`: one answer each, options as buttons when offered. */
export function QuestionCard({
  pending,
  onAnswer,
}: {
  pending: PendingQuestion;
  onAnswer(answers: string[]): void;
}) {
  const [answers, setAnswers] = useState<string[]>(() => pending.questions.map(() => ""));
  const setAnswer = (index: number, value: string) =>
    setAnswers((current) => current.map((answer, i) => (i === index ? value : answer)));
  return (
    <form
      className="question-card"
      data-testid="question-card"
      onSubmit={(event) => {
        event.preventDefault();
        onAnswer(answers);
      }}
    >
      {pending.questions.map((question, index) => (
        <div className="question" key={question.question}>
          <div className="question-text">{question.question}</div>
          {question.options && question.options.length > 0 && (
            <div className="question-options">
              {question.options.map((option) => (
                <button
                  type="button"
                  key={option}
                  className={answers[index] === option ? "chosen" : ""}
                  onClick={() => setAnswer(index, option)}
                >
                  {option}
                </button>
              ))}
            </div>
          )}
          <input
            aria-label={question.question}
            value={answers[index] ?? ""}
            onChange={(event) => setAnswer(index, event.target.value)}
          />
        </div>
      ))}
      <button type="submit" className="primary">
        Answer
      </button>
    </form>
  );
}
