import type { CheckpointDiffReply, CheckpointRestoreReply, CheckpointSummary } from "@lathe/protocol";
import { useCallback, useMemo, useState } from "react";
import { api } from "../api/httpApi.js";
import { absoluteTime, relativeTime } from "../displayFormat.js";
import { DiffView, splitPatch } from "../render/index.js";
import { PanelStatus, ResourceView } from "./PanelStatus.js";
import { useApiAction } from "./useApiAction.js";
import { useApiResource } from "./useApiResource.js";
import "./panels.css";

export interface CheckpointListProps {
  sessionId: string;
  refreshKey?: number;
  /** What each checkpoint was taken before ("Before `rm -r build`"). */
  labelOf(checkpoint: CheckpointSummary): string;
  onRestored(reply: CheckpointRestoreReply): void;
}

export function CheckpointList(props: CheckpointListProps) {
  const { sessionId } = props;
  const load = useCallback(() => api.checkpoints(sessionId), [sessionId]);
  const { resource } = useApiResource(load, props.refreshKey);
  const now = Date.now();
  return (
    <div className="lp-panel lp-checkpoints" data-testid="checkpoint-list">
      <ResourceView
        resource={resource}
        emptyText="No checkpoints yet"
        isEmpty={(checkpoints) => checkpoints.length === 0}
      >
        {(checkpoints) => (
          <ul className="lp-list">
            {/* The server answers oldest first; the newest is the one a user most often wants back. */}
            {checkpoints.toReversed().map((checkpoint) => (
              <CheckpointRow
                key={checkpoint.id}
                sessionId={sessionId}
                checkpoint={checkpoint}
                label={props.labelOf(checkpoint)}
                now={now}
                onRestored={props.onRestored}
              />
            ))}
          </ul>
        )}
      </ResourceView>
    </div>
  );
}

type OpenPart = "none" | "diff" | "restore";

function CheckpointRow(props: {
  sessionId: string;
  checkpoint: CheckpointSummary;
  label: string;
  now: number;
  onRestored(reply: CheckpointRestoreReply): void;
}) {
  const { checkpoint } = props;
  const [openPart, setOpenPart] = useState<OpenPart>("none");
  const toggle = (part: OpenPart) => setOpenPart(openPart === part ? "none" : part);
  return (
    <li className="lp-item" data-testid="checkpoint-row" data-id={checkpoint.id}>
      <div className="lp-item-line">
        <span className="lp-item-title" data-testid="checkpoint-label" title={props.label}>
          {props.label}
        </span>
        <span className="lp-muted" title={absoluteTime(checkpoint.createdAt)}>
          {relativeTime(checkpoint.createdAt, props.now)}
        </span>
        <span className="lp-mono lp-muted" title={checkpoint.commit}>
          {checkpoint.commit.slice(0, 7)}
        </span>
        <span className="lp-push-right lp-button-group">
          {(["diff", "restore"] as const).map((part) => (
            <button
              key={part}
              type="button"
              className="lp-button"
              aria-expanded={openPart === part}
              onClick={() => toggle(part)}
            >
              {part === "diff" ? "Diff" : "Restore"}
            </button>
          ))}
        </span>
      </div>
      {openPart === "diff" ? (
        <CheckpointDiff sessionId={props.sessionId} checkpointId={checkpoint.id} />
      ) : null}
      {openPart === "restore" ? (
        <RestoreConfirmation
          sessionId={props.sessionId}
          checkpointId={checkpoint.id}
          onCancel={() => setOpenPart("none")}
          onRestored={(reply) => {
            setOpenPart("none");
            props.onRestored(reply);
          }}
        />
      ) : null}
    </li>
  );
}

function CheckpointDiff(props: { sessionId: string; checkpointId: string }) {
  const { sessionId, checkpointId } = props;
  const load = useCallback(() => api.checkpointDiff(sessionId, checkpointId), [sessionId, checkpointId]);
  const { resource } = useApiResource(load);
  return (
    <div className="lp-diff">
      <ResourceView
        resource={resource}
        loadingText="Loading diff…"
        emptyText="No changes since this checkpoint"
        isEmpty={(diff) => diff.files.length === 0 && diff.patch.trim() === ""}
      >
        {(diff) => <DiffBody diff={diff} />}
      </ResourceView>
    </div>
  );
}

function DiffBody(props: { diff: CheckpointDiffReply }) {
  const { patch, files } = props.diff;
  const diffFiles = useMemo(() => splitPatch(patch), [patch]);
  if (diffFiles.length > 0) return <DiffView files={diffFiles} />;
  // Without a patch (binary files, say) the file list is all there is to show.
  return (
    <ul className="lp-diff-files">
      {files.map((file) => (
        <li key={file.path}>
          <span className="lp-diff-status">{file.status}</span> <span className="lp-mono">{file.path}</span>
        </li>
      ))}
    </ul>
  );
}

function RestoreConfirmation(props: {
  sessionId: string;
  checkpointId: string;
  onCancel(): void;
  onRestored(reply: CheckpointRestoreReply): void;
}) {
  const [restoreCode, setRestoreCode] = useState(true);
  const [restoreConversation, setRestoreConversation] = useState(true);
  const restore = useApiAction();
  const confirm = async () => {
    const result = await restore.run(() =>
      api.restoreCheckpoint(props.sessionId, props.checkpointId, {
        code: restoreCode,
        conversation: restoreConversation,
      }),
    );
    if (result.ok) props.onRestored(result.value);
  };
  const nothingChosen = !restoreCode && !restoreConversation;
  return (
    <fieldset className="lp-confirm">
      <legend className="lp-legend">Restore to this checkpoint</legend>
      <label className="lp-check">
        <input
          type="checkbox"
          checked={restoreCode}
          onChange={(event) => setRestoreCode(event.target.checked)}
        />
        Code (files in the project)
      </label>
      <label className="lp-check">
        <input
          type="checkbox"
          checked={restoreConversation}
          onChange={(event) => setRestoreConversation(event.target.checked)}
        />
        Conversation (later messages are kept in a fork)
      </label>
      <div className="lp-button-group">
        <button
          type="button"
          className="lp-button lp-danger"
          disabled={restore.pending || nothingChosen}
          onClick={confirm}
        >
          {restore.pending ? "Restoring…" : "Confirm restore"}
        </button>
        <button type="button" className="lp-button" disabled={restore.pending} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
      {restore.error ? <PanelStatus kind="error">{restore.error}</PanelStatus> : null}
    </fieldset>
  );
}
