import type { CloudApplyReply } from "@lathe/protocol";
import { AnsiOutput } from "../render/index.js";
import { ApplyButton } from "./ApplyButton.js";
import { PatchView } from "./PatchView.js";
import { StatusBadge } from "./StatusBadge.js";
import type { AttemptView } from "./taskAttempts.js";

/** How the end of a verify's output is shown: the failing test is near the end. */
const outputTailChars = 2_000;

/** One attempt of best-of-N beside the others: its check, its changes, its rank, and Apply. */
export function AttemptCard(props: {
  taskId: string;
  projectRoot: string;
  view: AttemptView;
  /** How many attempts the reviewer ranked. */
  ranked: number;
  onApplied(reply: CloudApplyReply): void;
}) {
  const { view } = props;
  const { step } = view;
  const verify = step.verify;
  return (
    <article
      className={`lc-attempt${view.rank === 1 ? " lc-attempt-best" : ""}`}
      data-testid="attempt-card"
      data-attempt={view.attempt}
      data-rank={view.rank}
      data-verify={verify === null ? "none" : verify.passed ? "passed" : "failed"}
    >
      <header className="lc-attempt-head">
        <span className="lc-attempt-name">Attempt {view.attempt}</span>
        <StatusBadge status={step.status} testId="attempt-status" />
        {view.rank !== undefined ? (
          <span className="lp-badge lp-badge-ok" data-testid="attempt-rank">
            {view.rank === 1 ? "best" : `#${view.rank} of ${props.ranked}`}
          </span>
        ) : null}
        {view.rejected !== undefined ? (
          <span className="lp-badge lp-badge-error" data-testid="attempt-rejected">
            rejected
          </span>
        ) : null}
      </header>
      {step.workerId ? <div className="lp-hint">on {step.workerId}</div> : null}
      {view.rejected !== undefined ? (
        <p className="lc-attempt-reason lp-error-text" data-testid="attempt-rejected-reason">
          {view.rejected}
        </p>
      ) : null}
      {verify !== null ? (
        <div className="lc-attempt-verify" data-testid="attempt-verify">
          <span className={verify.passed ? "lc-ok" : "lc-bad"} data-testid="attempt-verify-result">
            {verify.passed ? "Verify passed" : "Verify failed"} (
            <span className="lp-mono">{verify.command}</span>, exit {verify.exitCode ?? "none"})
          </span>
          {verify.output.trim() !== "" ? (
            <AnsiOutput text={verify.output} maxChars={outputTailChars} />
          ) : null}
        </div>
      ) : null}
      <PatchView patch={view.patch} testId="attempt-patch" />
      <ApplyButton
        taskId={props.taskId}
        projectRoot={props.projectRoot}
        attempt={view.attempt}
        label={`Apply attempt ${view.attempt}`}
        testId="attempt-apply"
        disabled={!view.applicable}
        onApplied={props.onApplied}
      />
    </article>
  );
}
