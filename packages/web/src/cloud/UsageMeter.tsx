import type { CloudTask } from "@lathe/protocol";
import { useEffect, useState } from "react";
import { isFinished } from "./taskStates.js";

/** One use against its limit: a number, and a bar when there is a limit. */
function Meter(props: {
  testId: string;
  label: string;
  used: number;
  limit?: number;
  format(value: number): string;
}) {
  const share = props.limit === undefined ? undefined : Math.min(1, props.used / props.limit);
  return (
    <div className="lc-meter" data-testid={props.testId} data-over={share === 1 ? "true" : undefined}>
      <span className="lp-label">{props.label}</span>
      <span className="lp-mono">
        {props.format(props.used)}
        {props.limit === undefined ? "" : ` / ${props.format(props.limit)}`}
      </span>
      {share === undefined ? null : (
        <span className="lc-meter-track">
          <span className="lc-meter-fill" style={{ width: `${Math.round(share * 100)}%` }} />
        </span>
      )}
    </div>
  );
}

/** The clock of a task that is still going, in whole seconds. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/** Tokens, cost and time used so far, each against the task's budget when it has one. */
export function UsageMeter(props: { task: CloudTask }) {
  const { task } = props;
  const running = task.startedAt !== null && !isFinished(task.status);
  const now = useNow(running);
  const end = task.completedAt ?? now;
  const seconds = task.startedAt === null ? 0 : Math.max(0, Math.round((end - task.startedAt) / 1000));
  const budget = task.budget ?? {};
  return (
    <div className="lc-usage" data-testid="task-usage">
      <Meter
        testId="usage-tokens"
        label="Tokens"
        used={task.usage.inputTokens + task.usage.outputTokens}
        limit={budget.tokens}
        format={(value) => value.toLocaleString("en-US")}
      />
      <Meter
        testId="usage-cost"
        label="Cost"
        used={task.usage.costUsd}
        limit={budget.costUsd}
        format={(value) => `$${value.toFixed(value < 1 ? 4 : 2)}`}
      />
      <Meter
        testId="usage-time"
        label="Time"
        used={seconds}
        limit={budget.seconds}
        format={(value) => `${value} s`}
      />
    </div>
  );
}
