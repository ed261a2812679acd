import type { ReactNode } from "react";
import type { ApiResource } from "./useApiResource.js";
import "./panels.css";

/** The one line a panel shows instead of content: loading, nothing there yet, or what went wrong. */
export function PanelStatus(props: { kind: "loading" | "empty" | "error"; children: ReactNode }) {
  return (
    <div className={`lp-status lp-status-${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/**
 * Renders a resource's loading and error states, its empty state when `isEmpty` says so, and
 * otherwise `children` with the data. A failed refresh replaces the old data rather than sitting
 * next to it, so a list that is no longer current never looks current.
 */
export function ResourceView<T>(props: {
  resource: ApiResource<T>;
  loadingText?: string;
  /** Both or neither: a resource without an empty state (a settings object) leaves them out. */
  emptyText?: string;
  isEmpty?(data: T): boolean;
  children(data: T): ReactNode;
}) {
  const { resource } = props;
  if (resource.status === "loading")
    return <PanelStatus kind="loading">{props.loadingText ?? "Loading…"}</PanelStatus>;
  if (resource.status === "failed") return <PanelStatus kind="error">{resource.error}</PanelStatus>;
  if (props.isEmpty?.(resource.data)) return <PanelStatus kind="empty">{props.emptyText}</PanelStatus>;
  return <>{props.children(resource.data)}</>;
}
