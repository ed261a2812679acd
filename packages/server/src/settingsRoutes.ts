import { type ApiCall, serviceReply, withServices } from "./apiContext.js";
import type { Reply } from "./httpJson.js";
import { keyBody, settingsBody } from "./requestBodies.js";
import { methodNotAllowed, noRoute, readBody, readQuery } from "./requestParsing.js";
import { noQuery } from "./requestQueries.js";

/**
 * The user's configuration: `GET /api/info`, `GET|PUT /api/settings`, `PUT /api/keys/:provider`.
 * A key goes in and never comes out: replies say only whether a provider has one.
 */
export function settingsRoutes(group: string, call: ApiCall): Promise<Reply> {
  const { request, url, rest } = call;
  return withServices(call.context, async (services) => {
    const query = await readQuery(url, noQuery);
    if (!query.ok) return query.reply;
    if (group === "keys") {
      const [provider, ...extra] = rest;
      if (provider === undefined || extra.length > 0) return noRoute(url.pathname);
      if (request.method !== "PUT") return methodNotAllowed(request.method);
      const parsed = await readBody(request, keyBody);
      if (!parsed.ok) return parsed.reply;
      return serviceReply(await services.storeKey(provider, parsed.data.key));
    }
    if (rest.length > 0) return noRoute(url.pathname);
    if (group === "info") {
      if (request.method !== "GET") return methodNotAllowed(request.method);
      return serviceReply(await services.info());
    }
    if (group !== "settings") return noRoute(url.pathname);
    if (request.method === "GET") return serviceReply(await services.settings());
    if (request.method !== "PUT") return methodNotAllowed(request.method);
    const parsed = await readBody(request, settingsBody);
    if (!parsed.ok) return parsed.reply;
    return serviceReply(await services.updateSettings(parsed.data.settings));
  });
}
