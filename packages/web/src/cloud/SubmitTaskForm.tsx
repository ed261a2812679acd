import type { CloudApprovalMode, CloudBudget } from "@lathe/protocol";
import { type FormEvent, useState } from "react";
import { cloudApi } from "../api/cloudApi.js";
import { approvalModeExplanations } from "../approvalModes.js";
import { PanelStatus } from "../panels/PanelStatus.js";
import { useApiAction } from "../panels/useApiAction.js";

const approvalModes: CloudApprovalMode[] = ["manual", "ask_first", "auto_edit", "auto"];

export interface SubmitTaskFormProps {
  projectRoot: string;
  /** The pipelines the project may use. */
  pipelines: string[];
  onSubmitted(taskId: string): void;
}

/** A positive number typed in a field, or undefined when the field is empty. */
function limit(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

/**
 * Queues a task for the fleet from the served project's last commit: the prompt, a pipeline, how
 * many attempts, the project's own check, the budget and the approval mode. The server checks every
 * field; what it refuses is shown here, and nothing is queued.
 */
export function SubmitTaskForm(props: SubmitTaskFormProps) {
  const [prompt, setPrompt] = useState("");
  const [pipeline, setPipeline] = useState("");
  const [attempts, setAttempts] = useState("1");
  const [verify, setVerify] = useState("");
  const [tokens, setTokens] = useState("");
  const [cost, setCost] = useState("");
  const [seconds, setSeconds] = useState("");
  const [approvalMode, setApprovalMode] = useState<CloudApprovalMode>("auto_edit");
  const [forceCloud, setForceCloud] = useState(false);
  const [notices, setNotices] = useState<string[]>([]);
  const submit = useApiAction();

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const budget: CloudBudget = { tokens: limit(tokens), costUsd: limit(cost), seconds: limit(seconds) };
    const result = await submit.run(() =>
      cloudApi.submit({
        projectRoot: props.projectRoot,
        prompt,
        pipeline: pipeline || undefined,
        attempts: Number(attempts),
        verify: verify.trim() || undefined,
        budget: Object.values(budget).some((value) => value !== undefined) ? budget : undefined,
        approvalMode,
        forceCloud,
      }),
    );
    if (!result.ok) return;
    setNotices(result.value.notices);
    setPrompt("");
    props.onSubmitted(result.value.task.id);
  };

  return (
    // The server checks every field and says what is wrong with its code; the browser's own checks
    // would stop the form with a bubble that names no field's rule.
    <form
      className="lc-submit"
      data-testid="cloud-submit-form"
      noValidate
      onSubmit={(event) => void send(event)}
    >
      <h3 className="lp-heading">New task</h3>
      <div className="lp-field">
        <textarea
          className="lp-input lc-prompt"
          aria-label="Task"
          data-testid="cloud-prompt"
          placeholder="What should the fleet do?"
          rows={3}
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
        />
      </div>
      <div className="lc-fields">
        <label className="lc-field">
          <span className="lp-label">Pipeline</span>
          <select
            className="lp-input"
            data-testid="cloud-pipeline"
            value={pipeline}
            onChange={(event) => setPipeline(event.target.value)}
          >
            <option value="">Plain task</option>
            {props.pipelines.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="lc-field">
          <span className="lp-label">Attempts</span>
          <input
            className="lp-input"
            data-testid="cloud-attempts"
            type="number"
            min={1}
            max={8}
            value={attempts}
            onChange={(event) => setAttempts(event.target.value)}
          />
        </label>
        <label className="lc-field lc-field-wide">
          <span className="lp-label">Verify command</span>
          <input
            className="lp-input lp-mono"
            data-testid="cloud-verify"
            placeholder="npm test"
            value={verify}
            onChange={(event) => setVerify(event.target.value)}
          />
        </label>
        <label className="lc-field">
          <span className="lp-label">Max tokens</span>
          <input
            className="lp-input"
            data-testid="cloud-budget-tokens"
            type="number"
            min={1}
            value={tokens}
            onChange={(event) => setTokens(event.target.value)}
          />
        </label>
        <label className="lc-field">
          <span className="lp-label">Max cost (USD)</span>
          <input
            className="lp-input"
            data-testid="cloud-budget-cost"
            type="number"
            min={0}
            step="any"
            value={cost}
            onChange={(event) => setCost(event.target.value)}
          />
        </label>
        <label className="lc-field">
          <span className="lp-label">Max time (s)</span>
          <input
            className="lp-input"
            data-testid="cloud-budget-seconds"
            type="number"
            min={1}
            value={seconds}
            onChange={(event) => setSeconds(event.target.value)}
          />
        </label>
        <label className="lc-field">
          <span className="lp-label">Approvals</span>
          <select
            className="lp-input"
            data-testid="cloud-approval-mode"
            value={approvalMode}
            title={approvalModeExplanations[approvalMode]}
            onChange={(event) => setApprovalMode(event.target.value as CloudApprovalMode)}
          >
            {approvalModes.map((mode) => (
              <option key={mode} value={mode} title={approvalModeExplanations[mode]}>
                {mode}
              </option>
            ))}
          </select>
        </label>
      </div>
      {Number(attempts) > 1 || verify.trim() !== "" ? (
        <p className="lp-hint">
          Attempts and a verify command run as a pipeline ({pipeline || "default"}): each attempt is checked,
          and the reviewer ranks the ones that pass.
        </p>
      ) : null}
      <div className="lp-toolbar">
        <label className="lp-check" title="The router keeps some tasks on this machine (secrets, the screen)">
          <input
            type="checkbox"
            data-testid="cloud-force"
            checked={forceCloud}
            onChange={(event) => setForceCloud(event.target.checked)}
          />
          Send to the fleet anyway
        </label>
        <button
          type="submit"
          className="lp-button lp-primary lp-push-right"
          data-testid="cloud-submit"
          disabled={submit.pending || prompt.trim() === ""}
        >
          {submit.pending ? "Submitting…" : "Submit"}
        </button>
      </div>
      {submit.error ? (
        <div data-testid="cloud-submit-error">
          <PanelStatus kind="error">{submit.error}</PanelStatus>
        </div>
      ) : null}
      {notices.map((notice) => (
        <p key={notice} className="lp-hint" data-testid="cloud-submit-notice">
          {notice}
        </p>
      ))}
    </form>
  );
}
