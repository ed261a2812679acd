import { type ApiCall, serviceReply, withServices } from "./apiContext.js";
import type { Reply } from "./httpJson.js";
import { methodNotAllowed, noRoute, readQuery } from "./requestParsing.js";
import { noQuery, storedSessionsQuery } from "./requestQueries.js";

/** `GET /api/stored-sessions?projectRoot=`: the session database's sessions, newest first. */
export function storedSessionRoutes(call: ApiCall): Promise<Reply> {
  return withServices(call.context, async (services) => {
    if (call.rest.length > 0) return noRoute(call.url.pathname);
    if (call.request.method !== "GET") return methodNotAllowed(call.request.method);
    const query = await readQuery(call.url, storedSessionsQuery);
    if (!query.ok) return query.reply;
    return serviceReply(await services.storedSessions(query.data.projectRoot));
  });
}

/** `GET /api/sessions/:id/trace`: the stored spans of the session's runs, open here or not. */
export function traceRoute(call: ApiCall, sessionId: string): Promise<Reply> {
  return withServices(call.context, async (services) => {
    if (call.rest.length > 0) return noRoute(call.url.pathname);
    if (call.request.method !== "GET") return methodNotAllowed(call.request.method);
    const query = await readQuery(call.url, noQuery);
    if (!query.ok) return query.reply;
    return serviceReply(await services.trace(sessionId));
  });
}
