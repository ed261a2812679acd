import type { CheckpointRecord, SessionInfo, SessionStore, ShadowRepository } from "@lathe/core";
import type { CheckpointSummary, LatheErrorInfo, StoredSessionSummary } from "@lathe/protocol";
import { type ServiceResult, served, serviceError, type WorkspaceServices } from "@lathe/server";
import { checkpointRepositoryFor } from "./checkpointRepository.js";
import { restoreCheckpoint } from "./checkpointRestore.js";
import { exactSession, type StoreAccess, withStore } from "./serveStore.js";

type SessionHistoryServices = Pick<
  WorkspaceServices,
  | "storedSessions"
  | "checkpoints"
  | "checkpointDiff"
  | "checkpointChanges"
  | "rejectChanges"
  | "restoreCheckpoint"
  | "trace"
>;

/** What the session database holds about past sessions: the list, checkpoints and traces. */
export function sessionHistoryServices(access: StoreAccess): SessionHistoryServices {
  return {
    storedSessions: (projectRoot) =>
      withStore(access, (store) =>
        served(store.listSessions(projectRoot === undefined ? {} : { projectRoot }).map(storedSummary)),
      ),

    checkpoints: (sessionId) =>
      withStore(access, (store) => {
        const session = exactSession(store, sessionId);
        if (!session.ok) return session;
        return served(store.checkpoints(session.value.id).map(checkpointSummary));
      }),

    checkpointDiff: (sessionId, checkpointId) =>
      onCheckpoint(access, sessionId, checkpointId, async ({ shadow, checkpoint }) => {
        const diff = await shadow.diff(checkpoint.commit);
        return diff.ok ? served(diff.value) : failed(diff.error);
      }),

    checkpointChanges: (sessionId, checkpointId) =>
      onCheckpoint(access, sessionId, checkpointId, async ({ shadow, checkpoint }) => {
        const files = await shadow.review(checkpoint.commit);
        return files.ok ? served({ files: files.value }) : failed(files.error);
      }),

    rejectChanges: (sessionId, checkpointId, parts) =>
      onCheckpoint(access, sessionId, checkpointId, async ({ shadow, checkpoint, session, store }) => {
        const rejected = await shadow.reject(checkpoint.commit, parts);
        if (!rejected.ok) {
          const { code, message } = rejected.error;
          // A file changed since the review is a conflict; a bad request or path, the caller's to fix.
          if (code === "E_STALE_FILE") return serviceError("conflict", code, message);
          if (code === "E_INVALID_ARGS" || code === "E_PATH_TRAVERSAL")
            return serviceError("invalid", code, message);
          return failed(rejected.error);
        }
        const { written, removed, before } = rejected.value;
        const record = store.addCheckpoint({
          sessionId: session.id,
          reason: "before_reject",
          commit: before,
        });
        return served({ written, removed, before: record.id });
      }),

    restoreCheckpoint: (sessionId, checkpointId, parts) =>
      withStore(access, async (store) => {
        const found = sessionCheckpoint(store, sessionId, checkpointId);
        if (!found.ok) return found;
        const restored = await restoreCheckpoint({
          store,
          latheHome: access.latheHome,
          ...found.value,
          ...parts,
        });
        if (!restored.ok) {
          const { code, message } = restored.error;
          return serviceError(restored.refused ? "invalid" : "failed", code, message);
        }
        const { code, conversation } = restored.value;
        return served({ written: code?.written ?? [], removed: code?.removed ?? [], ...conversation });
      }),

    trace: (sessionId) =>
      withStore(access, (store) => {
        const session = exactSession(store, sessionId);
        return session.ok ? served({ spans: store.spans(session.value.id) }) : session;
      }),
  };
}

/** The session's checkpoint and its project's shadow repository, for work that needs both. */
function onCheckpoint<T>(
  access: StoreAccess,
  sessionId: string,
  checkpointId: string,
  work: (found: {
    store: SessionStore;
    session: SessionInfo;
    checkpoint: CheckpointRecord;
    shadow: ShadowRepository;
  }) => Promise<ServiceResult<T>>,
): Promise<ServiceResult<T>> {
  return withStore(access, async (store) => {
    const found = sessionCheckpoint(store, sessionId, checkpointId);
    if (!found.ok) return found;
    const shadow = await checkpointRepositoryFor(access.latheHome, found.value.session.projectRoot);
    if (!shadow.ok) return failed(shadow.error);
    return work({ store, ...found.value, shadow: shadow.value });
  });
}

function failed<T>(error: LatheErrorInfo): ServiceResult<T> {
  return serviceError("failed", error.code, error.message);
}

/**
 * A checkpoint of the session, by its id, a unique prefix of one, or the user message it was
 * taken at (what a chat view has at hand); one of another session is not found here.
 */
function sessionCheckpoint(
  store: SessionStore,
  sessionId: string,
  checkpointId: string,
): ServiceResult<{ session: SessionInfo; checkpoint: CheckpointRecord }> {
  const session = exactSession(store, sessionId);
  if (!session.ok) return session;
  const checkpoint = store.findCheckpoint(checkpointId);
  if (!checkpoint.ok || checkpoint.value.sessionId !== session.value.id) {
    return serviceError(
      "not_found",
      "E_CHECKPOINT",
      `Session ${sessionId} has no checkpoint ${checkpointId}.`,
    );
  }
  return served({ session: session.value, checkpoint: checkpoint.value });
}

function storedSummary(info: SessionInfo): StoredSessionSummary {
  return {
    id: info.id,
    // An untitled session is sent without a title.
    title: info.title || undefined,
    projectRoot: info.projectRoot,
    createdAt: info.createdAt,
    updatedAt: info.updatedAt,
    messageCount: info.messageCount,
    parentId: info.parentSessionId,
  };
}

function checkpointSummary(record: CheckpointRecord): CheckpointSummary {
  return {
    id: record.id,
    reason: record.reason,
    messageId: record.messageId,
    callId: record.callId,
    commit: record.commit,
    createdAt: record.createdAt,
  };
}
