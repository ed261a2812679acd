import { type CSSProperties, useCallback, useMemo } from "react";
import { api } from "../api/httpApi.js";
import { absoluteTime, formatDuration } from "../displayFormat.js";
import { ResourceView } from "./PanelStatus.js";
import { describeSpan, layoutTrace, type TraceRow, type TraceRun } from "./traceTree.js";
import { useApiResource } from "./useApiResource.js";
import "./panels.css";

export interface TraceViewProps {
  sessionId: string;
  refreshKey?: number;
}

export function TraceView(props: TraceViewProps) {
  const { sessionId } = props;
  const load = useCallback(() => api.trace(sessionId), [sessionId]);
  const { resource } = useApiResource(load, props.refreshKey);
  const runs = useMemo(
    () => (resource.status === "ready" ? layoutTrace(resource.data.spans) : []),
    [resource],
  );

  return (
    <div className="lp-panel lp-trace" data-testid="trace-view">
      <ResourceView
        resource={resource}
        emptyText="No runs traced yet"
        isEmpty={(trace) => trace.spans.length === 0}
      >
        {() => runs.map((run) => <RunWaterfall key={run.runId} run={run} />)}
      </ResourceView>
    </div>
  );
}

function RunWaterfall(props: { run: TraceRun }) {
  const { run } = props;
  const failed = run.rows.some((row) => row.span.status === "error");
  return (
    <section className="lp-trace-run" aria-label={`Run ${run.runId}`}>
      <header className="lp-trace-run-header">
        <span className={failed ? "lp-error-text" : undefined} title={run.runId}>
          Run {absoluteTime(run.startMs)}
        </span>
        <span className="lp-muted">{formatDuration(run.durationMs)}</span>
      </header>
      <ul className="lp-list">
        {run.rows.map((row) => (
          <SpanRow key={row.span.spanId} row={row} />
        ))}
      </ul>
    </section>
  );
}

function SpanRow(props: { row: TraceRow }) {
  const { row } = props;
  const { span } = row;
  const description = describeSpan(span);
  const failed = span.status === "error";
  const tooltip = [
    `${description.title} · ${formatDuration(row.durationMs)} (+${formatDuration(row.offsetMs)})`,
    ...Object.entries(span.attributes).map(([key, value]) => `${key}: ${value}`),
  ].join("\n");
  return (
    <li
      className={`lp-trace-row${failed ? " lp-trace-row-error" : ""}`}
      data-testid="trace-span"
      data-name={span.name}
      title={tooltip}
    >
      <div className="lp-trace-label" style={{ paddingLeft: `${0.5 + row.depth * 0.9}rem` }}>
        <span className="lp-trace-name">{description.title}</span>
        {description.details.length > 0 ? (
          <span className="lp-trace-detail">{description.details.join(" · ")}</span>
        ) : null}
        {failed ? <span className="lp-trace-error">{span.errorCode ?? "error"}</span> : null}
      </div>
      <div className="lp-trace-track">
        <div
          className={`lp-trace-bar lp-trace-bar-${span.name}`}
          style={{ left: `${row.leftPercent}%`, width: `${row.widthPercent}%` }}
        />
        <span className="lp-trace-duration" style={durationLabelPosition(row)}>
          {formatDuration(row.durationMs)}
        </span>
      </div>
    </li>
  );
}

/** After the bar when there is room, else before it, else over its start: the label never leaves the track. */
function durationLabelPosition(row: TraceRow): CSSProperties {
  const barEndPercent = row.leftPercent + row.widthPercent;
  if (barEndPercent <= 80) return { left: `${barEndPercent}%` };
  if (row.leftPercent >= 20) return { right: `${100 - row.leftPercent}%` };
  return { left: `${row.leftPercent}%` };
}
