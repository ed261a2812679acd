import type { CloudQuestion, CloudStep } from "@lathe/protocol";
import { cloudApi } from "../api/cloudApi.js";
import { PanelStatus } from "../panels/PanelStatus.js";
import { useApiAction } from "../panels/useApiAction.js";

/**
 * The seed's LocalExecutionPrompt: a step that needs this machine runs here only once its user says
 * so, after reading what will run. Declining fails the step; nothing runs.
 */
export function LocalExecutionPrompt(props: {
  taskId: string;
  step: CloudStep;
  question: Extract<CloudQuestion, { kind: "run_here" }>;
  onAnswered(): void;
}) {
  const { step, question } = props;
  const answer = useApiAction();
  const send = async (allow: boolean) => {
    const result = await answer.run(() => cloudApi.answer(props.taskId, { allow, stepIndex: step.index }));
    if (result.ok) props.onAnswered();
  };
  return (
    <div className="lc-question lc-local" data-testid="local-execution-prompt" data-step={step.index}>
      <div className="lc-question-title">
        Step {step.index + 1} ({question.step}) asks to run on this device ({step.runsOn ?? question.device})
      </div>
      <p className="lp-hint">
        The agent <strong>{question.agent}</strong> will run in a checkout of the task on this machine, with
        this machine's tools, settings and keys, on:
      </p>
      <pre className="lc-local-prompt" data-testid="local-execution-what">
        {question.prompt}
      </pre>
      <div className="lp-button-group">
        <button
          type="button"
          className="lp-button lp-primary"
          data-testid="local-run-here"
          disabled={answer.pending}
          onClick={() => void send(true)}
        >
          Run here
        </button>
        <button
          type="button"
          className="lp-button"
          data-testid="local-decline"
          disabled={answer.pending}
          onClick={() => void send(false)}
        >
          Decline
        </button>
      </div>
      {answer.error ? <PanelStatus kind="error">{answer.error}</PanelStatus> : null}
    </div>
  );
}
