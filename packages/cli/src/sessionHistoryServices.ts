import type { CheckpointRecord, SessionInfo, SessionStore } from "@lathe/core";
import type { CheckpointSummary, StoredSessionSummary } from "@lathe/protocol";
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
      withStore(access, async (store) => {
        const found = sessionCheckpoint(store, sessionId, checkpointId);
        if (!found.ok) return found;
        const { session, checkpoint } = found.value;
        const shadow = await checkpointRepositoryFor(access.latheHome, session.projectRoot);
        if (!shadow.ok) return serviceError("failed", shadow.error.code, shadow.error.message);
        const diff = await shadow.value.diff(checkpoint.commit);
        return diff.ok ? served(diff.value) : serviceError("failed", diff.error.code, diff.error.message);
      }),

    checkpointChanges: (sessionId, checkpointId) =>
      withStore(access, async (store) => {
        const found = sessionCheckpoint(store, sessionId, checkpointId);
        if (!found.ok) return found;
        const { session, checkpoint } = found.value;
        const shadow = await checkpointRepositoryFor(access.latheHome, session.projectRoot);
        if (!shadow.ok) return serviceError("failed", shadow.error.code, shadow.error.message);
        const files = await shadow.value.review(checkpoint.commit);
        return files.ok
          ? served({ files: files.value })
          : serviceError("failed", files.error.code, files.error.message);
      }),

    rejectChanges: (sessionId, checkpointId, parts) =>
      withStore(access, async (store) => {
        const found = sessionCheckpoint(store, sessionId, checkpointId);
        if (!found.ok) return found;
        const { session, checkpoint } = found.value;
        const shadow = await checkpointRepositoryFor(access.latheHome, session.projectRoot);
        if (!shadow.ok) return serviceError("failed", shadow.error.code, shadow.error.message);
        const rejected = await shadow.value.reject(checkpoint.commit, parts);
        if (!rejected.ok) {
          const { code, message } = rejected.error;
          const refused = code === "E_STALE_FILE" || code === "E_INVALID_ARGS" || code === "E_PATH_TRAVERSAL";
          return serviceError(
            code === "E_STALE_FILE" ? "conflict" : refused ? "invalid" : "failed",
            code,
            message,
          );
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
