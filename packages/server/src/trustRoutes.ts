import { z } from "zod";
import { type ApiCall, serviceReply } from "./apiContext.js";
import { errorReply, type Reply } from "./httpJson.js";
import { projectAccessRefusal, readProjectQuery } from "./projectAccess.js";
import { methodNotAllowed, noRoute, readBody } from "./requestParsing.js";
import { projectQuery, projectRootField } from "./requestQueries.js";

const trustBody = z.strictObject({
  projectRoot: projectRootField,
  /** The fingerprint the user was shown; absent trusts whatever the files are now. */
  fingerprint: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "fingerprint must be the 64 hex digits GET /api/trust answered")
    .optional(),
});

/**
 * `GET /api/trust?projectRoot=`: the project's gated files, what they run, whether they are trusted
 * and what changed; `POST /api/trust {projectRoot, fingerprint?}`: trust them. Sessions opened
 * afterwards use them; sessions opened before keep what they started with.
 */
export async function trustRoutes(call: ApiCall): Promise<Reply> {
  const { request, url, rest, context } = call;
  if (rest.length > 0) return noRoute(url.pathname);
  const services = context.services;
  if (services?.trust === undefined || services.grantTrust === undefined) {
    return errorReply(501, "E_NOT_SUPPORTED", "This server was started without workspace trust services.");
  }
  if (request.method === "GET") {
    const query = await readProjectQuery(call, projectQuery);
    return query.ok ? serviceReply(await services.trust(query.data.projectRoot)) : query.reply;
  }
  if (request.method !== "POST") return methodNotAllowed(request.method);
  const body = await readBody(request, trustBody);
  if (!body.ok) return body.reply;
  const refusal = await projectAccessRefusal(call, body.data.projectRoot);
  if (refusal) return refusal;
  return serviceReply(await services.grantTrust(body.data.projectRoot, body.data.fingerprint));
}
