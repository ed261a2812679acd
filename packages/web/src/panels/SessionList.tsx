import type { LiveSessionSummary, StoredSessionSummary } from "@lathe/protocol";
import { type ReactNode, useCallback } from "react";
import { api } from "../api/httpApi.js";
import { absoluteTime, relativeTime } from "../displayFormat.js";
import { ResourceView } from "./PanelStatus.js";
import { useApiResource } from "./useApiResource.js";
import "./panels.css";

export interface SessionListProps {
  projectRoot: string;
  activeId?: string;
  /**
   * The open session's state and mode as its event stream has them: its row shows these, never
   * the list's older copy, so the row and the status bar cannot disagree.
   */
  activeStatus?: Pick<LiveSessionSummary, "state" | "mode">;
  refreshKey?: number;
  onOpen(id: string): void;
  onNew(): void;
}

/** States in which the agent is doing something, shown with a busy badge. */
const busyStates = new Set<LiveSessionSummary["state"]>([
  "streaming",
  "tool_pending",
  "tool_executing",
  "tool_results",
]);

export function SessionList(props: SessionListProps) {
  const { projectRoot, refreshKey } = props;
  const loadLive = useCallback(
    async () => (await api.liveSessions()).filter((session) => session.projectRoot === projectRoot),
    [projectRoot],
  );
  const loadStored = useCallback(() => api.storedSessions(projectRoot), [projectRoot]);
  const live = useApiResource(loadLive, refreshKey).resource;
  const stored = useApiResource(loadStored, refreshKey).resource;

  const storedById = new Map(
    stored.status === "ready" ? stored.data.map((session) => [session.id, session]) : [],
  );
  // An open session is also in the database; listing it twice would give two rows with one id.
  const liveIds = new Set(live.status === "ready" ? live.data.map((session) => session.id) : []);
  const now = Date.now();

  return (
    <nav className="lp-panel lp-sessions" aria-label="Sessions">
      <div className="lp-toolbar">
        <button
          type="button"
          className="lp-button lp-primary"
          data-testid="new-session"
          onClick={props.onNew}
        >
          New session
        </button>
      </div>

      <h3 className="lp-heading">Open</h3>
      <ResourceView
        resource={live}
        emptyText="No open sessions"
        isEmpty={(sessions) => sessions.length === 0}
      >
        {(sessions) => (
          <ul className="lp-list">
            {sessions.map((session) => (
              <LiveSessionRow
                key={session.id}
                session={
                  session.id === props.activeId && props.activeStatus
                    ? { ...session, ...props.activeStatus }
                    : session
                }
                stored={storedById.get(session.id)}
                active={session.id === props.activeId}
                onOpen={props.onOpen}
              />
            ))}
          </ul>
        )}
      </ResourceView>

      <h3 className="lp-heading">History</h3>
      <ResourceView
        resource={stored}
        emptyText="No earlier sessions"
        isEmpty={(sessions) => sessions.every((session) => liveIds.has(session.id))}
      >
        {(sessions) => (
          <ul className="lp-list">
            {sessions
              .filter((session) => !liveIds.has(session.id))
              .map((session) => (
                <StoredSessionRow
                  key={session.id}
                  session={session}
                  now={now}
                  active={session.id === props.activeId}
                  onOpen={props.onOpen}
                />
              ))}
          </ul>
        )}
      </ResourceView>
    </nav>
  );
}

function LiveSessionRow(props: {
  session: LiveSessionSummary;
  stored: StoredSessionSummary | undefined;
  active: boolean;
  onOpen(id: string): void;
}) {
  const { session } = props;
  const badgeTone = busyStates.has(session.state)
    ? "busy"
    : session.state === "awaiting_approval"
      ? "attention"
      : session.state === "failed"
        ? "error"
        : "idle";
  return (
    <SessionRowButton
      id={session.id}
      title={props.stored?.title}
      tooltip={props.stored?.title ? `${props.stored.title}\n${session.id}` : session.id}
      active={props.active}
      onOpen={props.onOpen}
    >
      <span className={`lp-badge lp-badge-${badgeTone}`} data-testid="session-state">
        {session.state.replaceAll("_", " ")}
      </span>
      <span data-testid="session-mode">{session.mode}</span>
    </SessionRowButton>
  );
}

/** One row of either list: the session's title, a line of facts under it, a click to open it. */
function SessionRowButton(props: {
  id: string;
  title: string | undefined;
  tooltip: string;
  active: boolean;
  onOpen(id: string): void;
  children: ReactNode;
}) {
  return (
    <li>
      <button
        type="button"
        className="lp-row"
        data-testid="session-row"
        data-id={props.id}
        aria-current={props.active ? "true" : undefined}
        title={props.tooltip}
        onClick={() => props.onOpen(props.id)}
      >
        <span className="lp-row-title">{props.title || "Untitled"}</span>
        <span className="lp-row-meta">{props.children}</span>
      </button>
    </li>
  );
}

function StoredSessionRow(props: {
  session: StoredSessionSummary;
  now: number;
  active: boolean;
  onOpen(id: string): void;
}) {
  const { session } = props;
  return (
    <SessionRowButton
      id={session.id}
      title={session.title}
      tooltip={`${session.id}\nUpdated ${absoluteTime(session.updatedAt)}`}
      active={props.active}
      onOpen={props.onOpen}
    >
      <span>{relativeTime(session.updatedAt, props.now)}</span>
      <span>
        {session.messageCount} {session.messageCount === 1 ? "message" : "messages"}
      </span>
      {session.parentId ? <span title={`Forked from ${session.parentId}`}>fork</span> : null}
    </SessionRowButton>
  );
}
