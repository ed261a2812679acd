import { type ApiCall, serviceReply } from "./apiContext.js";
import {
  cloudAnswerBody,
  cloudApplyBody,
  cloudInfoQuery,
  cloudSubmitBody,
  cloudTasksQuery,
} from "./cloudRequests.js";
import type { CloudServices } from "./cloudServices.js";
import { errorReply, type Reply } from "./httpJson.js";
import { projectAccessRefusal, readProjectQuery } from "./projectAccess.js";
import { emptyBody } from "./requestBodies.js";
import { methodNotAllowed, noRoute, readBody, readQuery } from "./requestParsing.js";
import { noQuery } from "./requestQueries.js";

/**
 * The task queue (SPEC §9): `GET /api/cloud?projectRoot=` (the database and this device),
 * `GET|POST /api/cloud/tasks`, `GET /api/cloud/tasks/:id` (with its steps), and
 * `POST …/:id/answer`, `…/cancel`, `…/apply`. The live events are Server-Sent Events
 * (`cloudEventStream.ts`). Tasks run on the served project only.
 */
export async function cloudRoutes(call: ApiCall): Promise<Reply> {
  const cloud = call.context.services?.cloud;
  if (cloud === undefined)
    return errorReply(501, "E_NOT_SUPPORTED", "This server was started without cloud task services.");
  const { request, url } = call;
  const [group, taskId, action, ...extra] = call.rest;
  if (group === undefined) {
    if (request.method !== "GET") return methodNotAllowed(request.method);
    const query = await readProjectQuery(call, cloudInfoQuery);
    return query.ok ? serviceReply(await cloud.info(query.data.projectRoot)) : query.reply;
  }
  if (group !== "tasks" || extra.length > 0) return noRoute(url.pathname);
  if (taskId === undefined) {
    if (request.method === "GET") {
      const query = await readQuery(url, cloudTasksQuery);
      return query.ok ? serviceReply(await cloud.tasks(query.data)) : query.reply;
    }
    if (request.method === "POST") return submit(call, cloud);
    return methodNotAllowed(request.method);
  }
  const query = await readQuery(url, noQuery);
  if (!query.ok) return query.reply;
  if (action === undefined) {
    if (request.method !== "GET") return methodNotAllowed(request.method);
    return serviceReply(await cloud.task(taskId));
  }
  if (request.method !== "POST") return methodNotAllowed(request.method);
  switch (action) {
    case "answer": {
      const parsed = await readBody(request, cloudAnswerBody);
      return parsed.ok ? serviceReply(await cloud.answer(taskId, parsed.data)) : parsed.reply;
    }
    case "cancel": {
      const parsed = await readBody(request, emptyBody);
      return parsed.ok ? serviceReply(await cloud.cancel(taskId)) : parsed.reply;
    }
    case "apply": {
      const parsed = await readBody(request, cloudApplyBody);
      if (!parsed.ok) return parsed.reply;
      const refusal = await projectAccessRefusal(call, parsed.data.projectRoot);
      if (refusal) return refusal;
      return serviceReply(await cloud.apply(taskId, parsed.data.projectRoot, parsed.data.attempt));
    }
    default:
      return noRoute(url.pathname);
  }
}

async function submit(call: ApiCall, cloud: CloudServices): Promise<Reply> {
  const parsed = await readBody(call.request, cloudSubmitBody);
  if (!parsed.ok) return parsed.reply;
  const { projectRoot, budget, ...request } = parsed.data;
  const refusal = await projectAccessRefusal(call, projectRoot);
  if (refusal) return refusal;
  // A budget with no limit in it is no budget.
  const limits = budget !== undefined && Object.keys(budget).length > 0 ? budget : undefined;
  return serviceReply(await cloud.submit(projectRoot, { ...request, budget: limits }), 201);
}
