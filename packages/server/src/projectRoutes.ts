import { type ApiCall, serviceReply, withServices } from "./apiContext.js";
import { type Reply, reply } from "./httpJson.js";
import { completeMentions } from "./mentionCompletions.js";
import { readProjectQuery } from "./projectAccess.js";
import { listProjectFolder } from "./projectFolder.js";
import { mcpServerBody } from "./requestBodies.js";
import { methodNotAllowed, noRoute, readBody } from "./requestParsing.js";
import { filesQuery, mentionsQuery, projectQuery } from "./requestQueries.js";

/**
 * What a project holds besides its sessions, each read for the `projectRoot` the query names:
 * `GET /api/files?dir=`, `GET /api/mentions?q=`, `GET /api/memories`, `DELETE /api/memories/:id`,
 * `GET /api/rules`, `GET /api/mcp`, `GET /api/mcp/status`, each only for a project the server serves. Files and mentions
 * need only the engine; the rest come from the face's services.
 */
export async function projectRoutes(group: string, call: ApiCall): Promise<Reply> {
  const { request, url, rest } = call;
  if (group === "memories") return memoryRoutes(call);
  if (group === "mcp" && rest.length === 1 && rest[0] === "status") return mcpStatusRoute(call);
  if (group === "mcp" && (rest.length === 1 || request.method === "POST")) return mcpChangeRoutes(call);
  if (rest.length > 0) return noRoute(url.pathname);
  if (request.method !== "GET") return methodNotAllowed(request.method);
  switch (group) {
    case "files": {
      const query = await readProjectQuery(call, filesQuery);
      if (!query.ok) return query.reply;
      return serviceReply(await listProjectFolder(query.data.projectRoot, query.data.dir));
    }
    case "mentions": {
      const query = await readProjectQuery(call, mentionsQuery);
      if (!query.ok) return query.reply;
      const { projectPaths } = call.context;
      const listPaths = (root: string) => projectPaths.paths(root);
      return reply(200, await completeMentions(query.data.projectRoot, query.data.q, listPaths));
    }
    case "rules":
      return withServices(call.context, async (services) => {
        const query = await readProjectQuery(call, projectQuery);
        return query.ok ? serviceReply(await services.rules(query.data.projectRoot)) : query.reply;
      });
    case "mcp":
      return withServices(call.context, async (services) => {
        const query = await readProjectQuery(call, projectQuery);
        return query.ok ? serviceReply(await services.mcpServers(query.data.projectRoot)) : query.reply;
      });
    default:
      return noRoute(url.pathname);
  }
}

/** `GET /api/mcp/status?projectRoot=`: each server started once to show its state and offer. */
function mcpStatusRoute(call: ApiCall): Promise<Reply> {
  if (call.request.method !== "GET") return Promise.resolve(methodNotAllowed(call.request.method));
  return withServices(call.context, async (services) => {
    const query = await readProjectQuery(call, projectQuery);
    if (!query.ok) return query.reply;
    if (services.mcpStatus === undefined) return noRoute(call.url.pathname);
    return serviceReply(await services.mcpStatus(query.data.projectRoot));
  });
}

function memoryRoutes(call: ApiCall): Promise<Reply> {
  const { request, url, rest, context } = call;
  return withServices(context, async (services) => {
    const [memoryId, ...extra] = rest;
    if (extra.length > 0) return noRoute(url.pathname);
    const query = await readProjectQuery(call, projectQuery);
    if (!query.ok) return query.reply;
    const { projectRoot } = query.data;
    if (memoryId === undefined) {
      if (request.method !== "GET") return methodNotAllowed(request.method);
      return serviceReply(await services.memories(projectRoot));
    }
    if (request.method !== "DELETE") return methodNotAllowed(request.method);
    return serviceReply(await services.deleteMemory(projectRoot, memoryId));
  });
}

/**
 * `POST /api/mcp?projectRoot=` `{ name, command, args?, env? }` or `{ name, url, headers? }` adds a
 * server to the user's own `mcp.json`; `DELETE /api/mcp/:name?projectRoot=` removes one from it. A
 * project's files are the project's: they change in the project, not from here.
 */
function mcpChangeRoutes(call: ApiCall): Promise<Reply> {
  const { request, url, rest, context } = call;
  return withServices(context, async (services) => {
    const query = await readProjectQuery(call, projectQuery);
    if (!query.ok) return query.reply;
    const { projectRoot } = query.data;
    if (services.addMcpServer === undefined || services.removeMcpServer === undefined) {
      return noRoute(url.pathname);
    }
    if (rest.length === 0) {
      if (request.method !== "POST") return methodNotAllowed(request.method);
      const body = await readBody(request, mcpServerBody);
      if (!body.ok) return body.reply;
      const { name, ...entry } = body.data;
      return serviceReply(await services.addMcpServer(projectRoot, name, entry));
    }
    if (request.method !== "DELETE") return methodNotAllowed(request.method);
    return serviceReply(await services.removeMcpServer(projectRoot, rest[0] ?? ""));
  });
}
