import type { CheckpointRestoreReply } from "@lathe/protocol";
import { type ApiCall, serviceReply, withServices } from "./apiContext.js";
import { errorReply, type Reply, reply } from "./httpJson.js";
import { rejectBody, restoreBody } from "./requestBodies.js";
import { methodNotAllowed, noRoute, readBody, readQuery } from "./requestParsing.js";
import { noQuery } from "./requestQueries.js";
import type { WorkspaceServices } from "./workspaceServices.js";

/**
 * `GET /api/sessions/:id/checkpoints`, `GET …/checkpoints/:checkpointId/diff` and `…/changes`,
 * `POST …/checkpoints/:checkpointId/restore` and `…/reject`, for any stored session, open here or not.
 * `call.rest` is what follows `checkpoints`.
 */
export function checkpointRoutes(call: ApiCall, sessionId: string): Promise<Reply> {
  return withServices(call.context, async (services) => {
    const [checkpointId, action, ...extra] = call.rest;
    const method = call.request.method;
    if (extra.length > 0) return noRoute(call.url.pathname);
    const query = await readQuery(call.url, noQuery);
    if (!query.ok) return query.reply;
    if (checkpointId === undefined) {
      if (method !== "GET") return methodNotAllowed(method);
      return serviceReply(await services.checkpoints(sessionId));
    }
    if (action === "diff") {
      if (method !== "GET") return methodNotAllowed(method);
      return serviceReply(await services.checkpointDiff(sessionId, checkpointId));
    }
    if (action === "restore") {
      if (method !== "POST") return methodNotAllowed(method);
      return restore(call, services, sessionId, checkpointId);
    }
    if (action === "changes") {
      if (method !== "GET") return methodNotAllowed(method);
      return serviceReply(await services.checkpointChanges(sessionId, checkpointId));
    }
    if (action === "reject") {
      if (method !== "POST") return methodNotAllowed(method);
      return reject(call, services, sessionId, checkpointId);
    }
    return noRoute(call.url.pathname);
  });
}

/**
 * An open session's engine holds its conversation in memory: it is closed for the restore and
 * opened again from the store, so it continues from the restored conversation. A running session
 * is refused rather than cancelled: the user decides what to stop.
 */
async function restore(
  call: ApiCall,
  services: WorkspaceServices,
  sessionId: string,
  checkpointId: string,
): Promise<Reply> {
  const parsed = await readBody(call.request, restoreBody);
  if (!parsed.ok) return parsed.reply;
  const outcome = await call.context.hub.whileClosed(sessionId, () =>
    services.restoreCheckpoint(sessionId, checkpointId, parsed.data),
  );
  if (!outcome.ok && outcome.reason !== "reopen_failed") {
    return errorReply(409, "E_SESSION_BUSY", outcome.message);
  }
  if (!outcome.value.ok) return serviceReply(outcome.value);
  if (!outcome.ok) {
    const message = `The checkpoint was restored, but the session could not be opened again: ${outcome.message}`;
    return errorReply(500, "E_SESSION_REOPEN", message);
  }
  const restored: CheckpointRestoreReply = {
    ...outcome.value.value,
    streamId: outcome.reopened?.streamId,
  };
  return reply(200, restored);
}

/**
 * A rejection changes files the engine may be working on: a running session is refused, as for a
 * restore. The engine keeps no file contents of its own, so an idle one goes on as it is; its
 * stale-file check makes the model read a rejected file again before editing it.
 */
async function reject(
  call: ApiCall,
  services: WorkspaceServices,
  sessionId: string,
  checkpointId: string,
): Promise<Reply> {
  const parsed = await readBody(call.request, rejectBody);
  if (!parsed.ok) return parsed.reply;
  const live = call.context.hub.get(sessionId);
  if (live && live.summary().state !== "idle") {
    return errorReply(409, "E_SESSION_BUSY", "The session is running: stop it or wait for it, then reject.");
  }
  return serviceReply(await services.rejectChanges(sessionId, checkpointId, parsed.data));
}
