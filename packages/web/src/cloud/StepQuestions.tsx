import type { CloudStep } from "@lathe/protocol";
import { ApprovalQuestion } from "./ApprovalQuestion.js";
import { LocalExecutionPrompt } from "./LocalExecutionPrompt.js";

/**
 * What the task waits for, answered in place: approvals from any device; a device step's consent
 * only on that device — elsewhere the page says whose consent it waits for.
 */
export function StepQuestions(props: {
  taskId: string;
  steps: CloudStep[];
  deviceId: string;
  onAnswered(): void;
}) {
  const waiting = props.steps.filter((step) => step.status === "needs_input" && step.question !== null);
  if (waiting.length === 0) return null;
  return (
    <section className="lc-questions" aria-label="Waiting for an answer">
      {waiting.map((step) => {
        const question = step.question!;
        if (question.kind === "approval")
          return (
            <ApprovalQuestion
              key={step.index}
              taskId={props.taskId}
              step={step}
              question={question}
              onAnswered={props.onAnswered}
            />
          );
        const device = step.runsOn ?? question.device;
        if (device === props.deviceId)
          return (
            <LocalExecutionPrompt
              key={step.index}
              taskId={props.taskId}
              step={step}
              question={question}
              onAnswered={props.onAnswered}
            />
          );
        return (
          <div key={step.index} className="lc-question" data-testid="consent-waiting" data-step={step.index}>
            Step {step.index + 1} ({question.step}) is waiting for consent on device{" "}
            <span className="lp-mono">{device}</span>: it runs there once that device's user allows it.
          </div>
        );
      })}
    </section>
  );
}
