import type { CloudStep } from "@lathe/protocol";
import { StatusBadge } from "./StatusBadge.js";

/** Where a step runs: the worker holding it, else the device it waits for. */
function placeOf(step: CloudStep, deviceId: string): string | undefined {
  if (step.workerId !== null) return `on ${step.workerId}`;
  if (step.runsOn !== null) return step.runsOn === deviceId ? "on this device" : `on device ${step.runsOn}`;
  return undefined;
}

/** One step of the graph: its agent, status, where it runs, its attempt, verify and send-back. */
export function StepNode(props: { step: CloudStep; deviceId: string }) {
  const { step } = props;
  const place = placeOf(step, props.deviceId);
  const sentBack = step.verdict?.decision === "revise";
  return (
    <li
      className={`lc-step lc-step-${step.status}`}
      data-testid="step-node"
      data-index={step.index}
      data-status={step.status}
      data-attempt={step.attemptNo ?? undefined}
      title={step.error ? `${step.error.code}: ${step.error.message}` : undefined}
    >
      <div className="lc-step-line">
        <span className="lc-step-name" data-testid="step-name">
          {step.index + 1}. {step.name}
        </span>
        <StatusBadge status={step.status} testId="step-status" />
      </div>
      <div className="lc-step-facts">
        {step.agent && step.agent.name !== step.name ? <span>{step.agent.name}</span> : null}
        {step.agent?.readonly ? <span>read-only</span> : null}
        {step.optional ? <span>optional</span> : null}
        {place ? <span data-testid="step-place">{place}</span> : null}
        {step.attemptNo !== null ? <span data-testid="step-attempt">attempt {step.attemptNo}</span> : null}
        {step.retries > 0 ? <span>retry {step.retries}</span> : null}
        {step.verify ? (
          <span className={step.verify.passed ? "lc-ok" : "lc-bad"} data-testid="step-verify">
            verify {step.verify.passed ? "passed" : "failed"}
          </span>
        ) : null}
        {sentBack ? (
          <span className="lc-warn" data-testid="step-sends-back">
            ↩ sent the work back
          </span>
        ) : null}
        {step.sentBackBy !== null ? (
          <span className="lc-warn" data-testid="step-sent-back">
            ↩ redone after step {step.sentBackBy + 1}
          </span>
        ) : null}
      </div>
      {step.error ? <div className="lc-step-error lp-error-text">{step.error.message}</div> : null}
    </li>
  );
}
