import type { CloudQuestion, CloudStep } from "@lathe/protocol";
import { summarizeToolCall } from "@lathe/protocol";
import { useState } from "react";
import { cloudApi } from "../api/cloudApi.js";
import { PanelStatus } from "../panels/PanelStatus.js";
import { useApiAction } from "../panels/useApiAction.js";

/**
 * An approval the task's policy asked for on a worker, answered from this page: the first answer
 * from any device wins, and the worker goes on at once.
 */
export function ApprovalQuestion(props: {
  taskId: string;
  step: CloudStep;
  question: Extract<CloudQuestion, { kind: "approval" }>;
  onAnswered(): void;
}) {
  const { step, question } = props;
  const [message, setMessage] = useState("");
  const answer = useApiAction();
  const send = async (allow: boolean) => {
    const result = await answer.run(() =>
      cloudApi.answer(props.taskId, {
        allow,
        stepIndex: step.index,
        ...(allow || message.trim() === "" ? {} : { message: message.trim() }),
      }),
    );
    if (result.ok) props.onAnswered();
  };
  return (
    <div className="lc-question" data-testid="cloud-question" data-step={step.index}>
      <div className="lc-question-title">
        Step {step.index + 1} ({step.name}) asks:{" "}
        <span className="lp-mono" data-testid="cloud-question-call">
          {summarizeToolCall(question.tool, question.input)}
        </span>
      </div>
      {question.reason ? (
        <div className="lp-hint" data-testid="cloud-question-reason">
          {question.reason}
        </div>
      ) : null}
      <div className="lp-inline-form">
        <input
          className="lp-input"
          aria-label="Reason for a refusal"
          placeholder="Why not (told to the model with Deny)"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
        <button
          type="button"
          className="lp-button lp-primary"
          data-testid="question-allow"
          disabled={answer.pending}
          onClick={() => void send(true)}
        >
          Allow
        </button>
        <button
          type="button"
          className="lp-button"
          data-testid="question-deny"
          disabled={answer.pending}
          onClick={() => void send(false)}
        >
          Deny
        </button>
      </div>
      {answer.error ? <PanelStatus kind="error">{answer.error}</PanelStatus> : null}
    </div>
  );
}
