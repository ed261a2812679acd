import type { CloudEvent } from "@lathe/protocol";
import { useFollowingScroll } from "../render/followingScroll.js";

function time(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

/** The task's log as it streams: every event once, in seq order, each with its step. */
export function TaskLog(props: { events: CloudEvent[] }) {
  const { ref: box, onScroll } = useFollowingScroll<HTMLOListElement>();
  return (
    <ol className="lc-log" data-testid="task-log" ref={box} onScroll={onScroll}>
      {props.events.map((event) => (
        <li
          key={event.seq}
          className={`lc-log-line lc-log-${event.level}`}
          data-testid="log-line"
          data-seq={event.seq}
          data-kind={event.kind}
        >
          <span className="lc-log-time">{time(event.createdAt)}</span>
          <span className="lc-log-seq">#{event.seq}</span>
          <span className="lc-log-step">{event.stepIndex === null ? "" : `step ${event.stepIndex + 1}`}</span>
          <span className="lc-log-message" data-testid="log-message">
            {event.message}
          </span>
        </li>
      ))}
    </ol>
  );
}
