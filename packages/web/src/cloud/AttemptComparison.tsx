import type { CloudApplyReply, CloudStep, CloudTask } from "@lathe/protocol";
import { useMemo } from "react";
import { AttemptCard } from "./AttemptCard.js";
import { attemptsOf } from "./taskAttempts.js";

/** Best-of-N's attempts side by side, with the reviewer's ranking and why. */
export function AttemptComparison(props: {
  task: CloudTask;
  steps: CloudStep[];
  projectRoot: string;
  onApplied(reply: CloudApplyReply): void;
}) {
  const views = useMemo(() => attemptsOf(props.task, props.steps), [props.task, props.steps]);
  const ranking = props.task.ranking;
  return (
    <section className="lc-attempts" data-testid="attempt-comparison" aria-label="Attempts">
      <h3 className="lp-heading">Attempts</h3>
      {ranking ? (
        <p className="lc-ranking" data-testid="ranking-reason">
          <strong>Reviewer:</strong> {ranking.reason || "no reason given"}
        </p>
      ) : (
        <p className="lp-hint">The reviewer ranks the attempts that pass once all are done.</p>
      )}
      <div className="lc-attempt-grid">
        {views.map((view) => (
          <AttemptCard
            key={view.attempt}
            taskId={props.task.id}
            projectRoot={props.projectRoot}
            view={view}
            ranked={ranking?.order.length ?? 0}
            onApplied={props.onApplied}
          />
        ))}
      </div>
    </section>
  );
}
