import type { ChangedFile, CheckpointSummary } from "@lathe/protocol";
import { useCallback, useState } from "react";
import { api } from "../api/httpApi.js";
import { PanelStatus, ResourceView } from "./PanelStatus.js";
import { useApiAction } from "./useApiAction.js";
import { useApiResource } from "./useApiResource.js";
import "./panels.css";

export interface ChangesViewProps {
  sessionId: string;
  /** Changes when a run starts or ends: the review's starting point may have moved. */
  runKey: number;
  /** Changes when a tool call ended: files may have changed. */
  filesKey: number;
  /** A run is going on: its changes show as they come, and nothing is rejected under it. */
  busy: boolean;
  /** An undo restored the project from a checkpoint: the server reopened the session. */
  onRestored(): void;
}

/** What the review compares with: the project before the newest message (the last run's start). */
function lastRunStart(checkpoints: readonly CheckpointSummary[]): CheckpointSummary | undefined {
  return checkpoints.findLast((checkpoint) => checkpoint.reason === "user_message");
}

/**
 * What the user accepted: a whole file (index -1) as long as it is as they saw it, or a hunk by its
 * lines, so it stays accepted when another hunk of the file is rejected.
 */
const acceptedKey = (file: ChangedFile, hunk: number) =>
  hunk < 0
    ? `${file.path}\u0000${file.version}`
    : `${file.path}\u0000${file.hunks[hunk]?.lines.join("\n") ?? ""}`;

/** Accepted marks live in the browser, per session: accepting keeps the files as they are. */
function useAccepted(sessionId: string) {
  const storageKey = `lathe.review.accepted.${sessionId}`;
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(() => {
    try {
      return new Set(JSON.parse(localStorage.getItem(storageKey) ?? "[]") as string[]);
    } catch {
      return new Set();
    }
  });
  const accept = useCallback(
    (keys: string[]) =>
      setAccepted((current) => {
        const next = new Set([...current, ...keys]);
        localStorage.setItem(storageKey, JSON.stringify([...next]));
        return next;
      }),
    [storageKey],
  );
  return { accepted, accept };
}

/**
 * Review changes, as in an editor: every file changed since the last run began (by the agent's
 * edits or by its commands), with +/− counts; each hunk or file accepted (kept) or rejected (put
 * back as the checkpoint had it, after a checkpoint that the Undo button restores).
 */
export function ChangesView(props: ChangesViewProps) {
  const { sessionId, runKey } = props;
  const loadCheckpoints = useCallback(() => api.checkpoints(sessionId), [sessionId]);
  const checkpoints = useApiResource(loadCheckpoints, runKey).resource;
  const base = checkpoints.status === "ready" ? lastRunStart(checkpoints.data) : undefined;
  if (checkpoints.status !== "ready") {
    return (
      <div className="lp-panel lp-changes" data-testid="changes-view">
        <ResourceView resource={checkpoints} emptyText="" isEmpty={() => false}>
          {() => null}
        </ResourceView>
      </div>
    );
  }
  if (!base) {
    return (
      <div className="lp-panel lp-changes" data-testid="changes-view">
        <PanelStatus kind="empty">No changes yet: nothing has run in this session.</PanelStatus>
      </div>
    );
  }
  // A new run starts a new review: its own list, its own undo.
  return <ChangeList key={base.id} {...props} checkpointId={base.id} />;
}

function ChangeList(props: ChangesViewProps & { checkpointId: string }) {
  const { sessionId, checkpointId, runKey, filesKey, busy } = props;
  const loadChanges = useCallback(
    () => api.checkpointChanges(sessionId, checkpointId),
    [sessionId, checkpointId],
  );
  const { resource, reload } = useApiResource(loadChanges, runKey * 1_000_000 + filesKey);
  const { accepted, accept } = useAccepted(sessionId);
  const action = useApiAction();
  const [undo, setUndo] = useState<{ checkpoint: string; what: string }>();

  const reject = async (file: ChangedFile, hunk?: number) => {
    const result = await action.run(() =>
      api.rejectChanges(sessionId, checkpointId, {
        path: file.path,
        version: file.version,
        ...(hunk === undefined ? {} : { hunks: [hunk] }),
      }),
    );
    if (result.ok) setUndo({ checkpoint: result.value.before, what: file.path });
    reload();
  };
  const rejectAll = async (files: ChangedFile[]) => {
    let first: string | undefined;
    for (const file of files) {
      // What the user accepted in a file stays: only its other hunks go back.
      const open = file.hunks.flatMap((_, index) => (accepted.has(acceptedKey(file, index)) ? [] : [index]));
      const partly = !file.whole && open.length < file.hunks.length;
      const result = await action.run(() =>
        api.rejectChanges(sessionId, checkpointId, {
          path: file.path,
          version: file.version,
          ...(partly ? { hunks: open } : {}),
        }),
      );
      if (!result.ok) break;
      first ??= result.value.before;
    }
    if (first) setUndo({ checkpoint: first, what: `${files.length} files` });
    reload();
  };
  const undoRejection = async () => {
    if (!undo) return;
    const result = await action.run(() =>
      api.restoreCheckpoint(sessionId, undo.checkpoint, { code: true, conversation: false }),
    );
    if (!result.ok) return;
    setUndo(undefined);
    reload();
    props.onRestored();
  };

  return (
    <div className="lp-panel lp-changes" data-testid="changes-view">
      {undo && (
        <div className="lp-undo" data-testid="undo-rejection">
          <span>Rejected changes to {undo.what}.</span>
          <button
            type="button"
            className="lp-button"
            disabled={action.pending || busy}
            onClick={undoRejection}
          >
            Undo
          </button>
        </div>
      )}
      {action.error ? <PanelStatus kind="error">{action.error}</PanelStatus> : null}
      <ResourceView
        resource={resource}
        emptyText="No changes since the last run began"
        isEmpty={(reply) => reply.files.length === 0}
      >
        {(reply) => {
          const pending = reply.files.filter((file) => !isAccepted(file, accepted));
          const added = reply.files.reduce((sum, file) => sum + file.added, 0);
          const removed = reply.files.reduce((sum, file) => sum + file.removed, 0);
          return (
            <>
              <div className="lp-changes-summary" data-testid="changes-summary">
                <span>
                  {reply.files.length} {reply.files.length === 1 ? "file" : "files"}
                </span>
                <span className="lp-added">+{added}</span>
                <span className="lp-removed">−{removed}</span>
                <span className="lp-push-right lp-button-group">
                  <button
                    type="button"
                    className="lp-button"
                    data-testid="accept-all"
                    disabled={pending.length === 0}
                    onClick={() => accept(reply.files.map((file) => acceptedKey(file, -1)))}
                  >
                    Accept all
                  </button>
                  <button
                    type="button"
                    className="lp-button lp-danger"
                    data-testid="reject-all"
                    disabled={pending.length === 0 || busy || action.pending}
                    onClick={() => void rejectAll(pending)}
                  >
                    Reject all
                  </button>
                </span>
              </div>
              <ul className="lp-list">
                {reply.files.map((file) => (
                  <ChangedFileRow
                    key={`${file.path}:${file.version}`}
                    file={file}
                    accepted={accepted}
                    canReject={!busy && !action.pending}
                    onAccept={(hunk) => accept([acceptedKey(file, hunk)])}
                    onReject={(hunk) => void reject(file, hunk)}
                  />
                ))}
              </ul>
            </>
          );
        }}
      </ResourceView>
    </div>
  );
}

function isAccepted(file: ChangedFile, accepted: ReadonlySet<string>): boolean {
  if (accepted.has(acceptedKey(file, -1))) return true;
  return file.hunks.length > 0 && file.hunks.every((_, index) => accepted.has(acceptedKey(file, index)));
}

function ChangedFileRow(props: {
  file: ChangedFile;
  accepted: ReadonlySet<string>;
  canReject: boolean;
  onAccept(hunk: number): void;
  onReject(hunk?: number): void;
}) {
  const { file, accepted } = props;
  const done = isAccepted(file, accepted);
  const [open, setOpen] = useState(false);
  return (
    <li
      className={`lp-item lp-change${done ? " lp-accepted" : ""}`}
      data-testid="changed-file"
      data-path={file.path}
      data-status={file.status}
      data-accepted={done}
    >
      <div className="lp-item-line">
        <button
          type="button"
          className="lp-change-path"
          aria-expanded={open}
          title={file.path}
          onClick={() => setOpen(!open)}
        >
          {file.path}
        </button>
        <span className="lp-change-status">{file.status}</span>
        <span className="lp-added">+{file.added}</span>
        <span className="lp-removed">−{file.removed}</span>
        {!done && (
          <ReviewButtons
            className="lp-push-right"
            what="file"
            canReject={props.canReject}
            onAccept={() => props.onAccept(-1)}
            onReject={() => props.onReject()}
          />
        )}
      </div>
      {open &&
        (file.hunks.length === 0 ? (
          <div className="lp-hint">Binary or a link: accept or reject it whole.</div>
        ) : (
          file.hunks.map((hunk, index) => {
            const hunkDone = done || accepted.has(acceptedKey(file, index));
            return (
              <div
                // The file's version is in the row's key: a hunk's index is its identity within it.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={index}
                className={`lp-hunk${hunkDone ? " lp-accepted" : ""}`}
                data-testid="change-hunk"
                data-accepted={hunkDone}
              >
                {!file.whole && !hunkDone && (
                  <ReviewButtons
                    className="lp-hunk-actions"
                    what="hunk"
                    canReject={props.canReject}
                    onAccept={() => props.onAccept(index)}
                    onReject={() => props.onReject(index)}
                  />
                )}
                <HunkLines oldIndex={hunk.oldIndex} newIndex={hunk.newIndex} lines={hunk.lines} />
              </div>
            );
          })
        ))}
    </li>
  );
}

/** Accept (keep) or reject (put back) a file or a hunk. */
function ReviewButtons(props: {
  className: string;
  what: "file" | "hunk";
  canReject: boolean;
  onAccept(): void;
  onReject(): void;
}) {
  return (
    <span className={`lp-button-group ${props.className}`}>
      <button
        type="button"
        className="lp-button"
        data-testid={`accept-${props.what}`}
        onClick={props.onAccept}
      >
        Accept
      </button>
      <button
        type="button"
        className="lp-button lp-danger"
        data-testid={`reject-${props.what}`}
        disabled={!props.canReject}
        onClick={props.onReject}
      >
        Reject
      </button>
    </span>
  );
}

/** A hunk's lines with the line numbers of both sides, in the diff view's look. */
function HunkLines(props: { oldIndex: number; newIndex: number; lines: string[] }) {
  let oldNumber = props.oldIndex;
  let newNumber = props.newIndex;
  return (
    <table className="diff-table">
      <tbody>
        {props.lines.map((line, index) => {
          const sign = line[0];
          const kind = sign === "+" ? "add" : sign === "-" ? "del" : "context";
          if (sign !== "+") oldNumber++;
          if (sign !== "-") newNumber++;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a hunk's lines never reorder
            <tr key={index} className={`diff-line diff-line-${kind}`}>
              <td className="diff-number">{sign === "+" ? "" : oldNumber}</td>
              <td className="diff-number">{sign === "-" ? "" : newNumber}</td>
              <td className="diff-code">
                <span className="diff-sign">{sign === " " ? "" : sign}</span>
                {line.slice(1)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
