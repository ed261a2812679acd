import type { CloudStep } from "@lathe/protocol";
import { useMemo } from "react";
import { StepNode } from "./StepNode.js";
import { stepColumns } from "./stepColumns.js";

/** The task's steps as a graph, left to right: steps that run side by side share a column. */
export function StepGraph(props: { steps: CloudStep[]; deviceId: string }) {
  const columns = useMemo(() => stepColumns(props.steps), [props.steps]);
  return (
    <ol className="lc-graph" data-testid="step-graph" aria-label="Steps">
      {columns.map((column) => (
        <li key={column[0]?.index} className="lc-column">
          <ol className="lc-column-steps">
            {column.map((step) => (
              <StepNode key={step.index} step={step} deviceId={props.deviceId} />
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}
