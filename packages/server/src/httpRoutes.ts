import type { IncomingMessage } from "node:http";
import type { ApiCall, ApiContext } from "./apiContext.js";
import { checkpointRoutes } from "./checkpointRoutes.js";
import { cloudRoutes } from "./cloudRoutes.js";
import { errorReply, type Reply, reply } from "./httpJson.js";
import type { LiveSession } from "./liveSession.js";
import { projectRoutes } from "./projectRoutes.js";
import {
  approvalBody,
  approvalModeBody,
  compactBody,
  createSessionBody,
  editorBody,
  emptyBody,
  messageBody,
  modeBody,
  openProjectBody,
  questionBody,
} from "./requestBodies.js";
import { methodNotAllowed, noRoute, readBody } from "./requestParsing.js";
import { settingsRoutes } from "./settingsRoutes.js";
import { storedSessionRoutes, traceRoute } from "./storedSessionRoutes.js";
import { trustRoutes } from "./trustRoutes.js";
import { pathSegments } from "./urlPath.js";

const projectGroups = new Set(["files", "mentions", "memories", "rules", "mcp"]);
const settingsGroups = new Set(["info", "settings", "keys"]);

/** Answers one `/api/…` request (the caller has already checked access), by its first segment. */
export async function routeApi(request: IncomingMessage, url: URL, context: ApiContext): Promise<Reply> {
  const segments = pathSegments(url.pathname);
  if (segments === undefined || segments[0] !== "api") return noRoute(url.pathname);
  const [, group = "", ...rest] = segments;
  const call: ApiCall = { request, url, rest, context };
  if (group === "sessions") return sessionRoutes(call);
  if (group === "stored-sessions") return storedSessionRoutes(call);
  if (group === "projects") return openProject(call);
  if (projectGroups.has(group)) return projectRoutes(group, call);
  if (settingsGroups.has(group)) return settingsRoutes(group, call);
  if (group === "trust") return trustRoutes(call);
  if (group === "cloud") return cloudRoutes(call);
  return noRoute(url.pathname);
}

/** `/api/sessions/…`: open sessions, and the stored history (checkpoints, trace) of any session. */
async function sessionRoutes(call: ApiCall): Promise<Reply> {
  const { request, url } = call;
  const { hub } = call.context;
  const [id, action, itemId, ...extra] = call.rest;
  const method = request.method;
  if (id === undefined) {
    if (method === "GET")
      return reply(
        200,
        hub.list().map((live) => live.summary()),
      );
    if (method === "POST") return createSession(call);
    return methodNotAllowed(method);
  }
  // Read from the store, so they work for sessions that are not open too.
  if (action === "checkpoints") return checkpointRoutes({ ...call, rest: call.rest.slice(2) }, id);
  if (action === "trace") return traceRoute({ ...call, rest: call.rest.slice(2) }, id);
  const live = hub.get(id);
  if (!live) return errorReply(404, "E_SESSION_NOT_FOUND", `No open session ${id}.`);
  if (extra.length > 0) return noRoute(url.pathname);
  if (action === undefined) {
    if (method === "GET") return reply(200, live.detail());
    if (method === "DELETE") {
      await hub.close(id);
      return reply(200, { closed: true });
    }
    return methodNotAllowed(method);
  }
  if (action === "events") {
    return errorReply(426, "E_UPGRADE_REQUIRED", "The event stream is a WebSocket: connect with an upgrade.");
  }
  if (method !== "POST") return methodNotAllowed(method);
  if (itemId !== undefined) {
    if (action === "approvals") return answerApproval(request, live, itemId);
    if (action === "questions") return answerQuestion(request, live, itemId);
    return noRoute(url.pathname);
  }
  return sessionCommand(request, live, action, url.pathname);
}

/** `POST /api/projects`: opens a folder the user chose, so the project routes serve it. */
async function openProject(call: ApiCall): Promise<Reply> {
  if (call.rest.length > 0) return noRoute(call.url.pathname);
  if (call.request.method !== "POST") return methodNotAllowed(call.request.method);
  const parsed = await readBody(call.request, openProjectBody);
  if (!parsed.ok) return parsed.reply;
  call.context.projects.open(parsed.data.projectRoot);
  return reply(200, { projectRoot: parsed.data.projectRoot });
}

async function createSession({ request, context }: ApiCall): Promise<Reply> {
  const parsed = await readBody(request, createSessionBody);
  if (!parsed.ok) return parsed.reply;
  const opened = await context.hub.open(parsed.data);
  if (opened.ok) {
    context.projects.open(parsed.data.projectRoot);
    return reply(201, { id: opened.session.id, streamId: opened.session.streamId });
  }
  if (opened.reason === "factory") return errorReply(400, opened.error.code, opened.error.message);
  if (opened.reason === "already_open") return errorReply(409, "E_SESSION_OPEN", opened.message);
  return errorReply(503, "E_SERVER_CLOSING", opened.message);
}

async function sessionCommand(
  request: IncomingMessage,
  live: LiveSession,
  action: string,
  path: string,
): Promise<Reply> {
  switch (action) {
    case "messages": {
      const parsed = await readBody(request, messageBody);
      return parsed.ok ? reply(202, live.send(parsed.data.text)) : parsed.reply;
    }
    case "cancel": {
      const parsed = await readBody(request, emptyBody);
      return parsed.ok ? reply(200, live.cancel()) : parsed.reply;
    }
    case "editor": {
      const parsed = await readBody(request, editorBody);
      if (!parsed.ok) return parsed.reply;
      const applied = live.updateEditor(parsed.data);
      return applied.ok
        ? reply(200, { ok: true })
        : errorReply(400, applied.error.code, applied.error.message);
    }
    case "mode": {
      const parsed = await readBody(request, modeBody);
      if (!parsed.ok) return parsed.reply;
      live.setMode(parsed.data.mode);
      return reply(200, { mode: parsed.data.mode });
    }
    case "approval-mode": {
      const parsed = await readBody(request, approvalModeBody);
      if (!parsed.ok) return parsed.reply;
      live.setApprovalMode(parsed.data.approvalMode);
      return reply(200, { approvalMode: parsed.data.approvalMode });
    }
    case "compact": {
      const parsed = await readBody(request, compactBody);
      if (!parsed.ok) return parsed.reply;
      const done = await live.compact(parsed.data.focus);
      return done
        ? reply(200, { compacted: true })
        : errorReply(409, "E_SESSION_BUSY", "A run is in progress; compact when it has finished.");
    }
    default:
      return noRoute(path);
  }
}

async function answerApproval(
  request: IncomingMessage,
  live: LiveSession,
  approvalId: string,
): Promise<Reply> {
  const parsed = await readBody(request, approvalBody);
  if (!parsed.ok) return parsed.reply;
  if (!live.pending.answerApproval(approvalId, parsed.data)) {
    return errorReply(
      404,
      "E_APPROVAL_NOT_FOUND",
      `No approval ${approvalId} is waiting (answered, withdrawn or unknown).`,
    );
  }
  return reply(200, { answered: true });
}

async function answerQuestion(
  request: IncomingMessage,
  live: LiveSession,
  questionId: string,
): Promise<Reply> {
  const parsed = await readBody(request, questionBody);
  if (!parsed.ok) return parsed.reply;
  const outcome = live.pending.answerQuestion(questionId, parsed.data.answers);
  if (outcome === "not_found") {
    return errorReply(
      404,
      "E_QUESTION_NOT_FOUND",
      `No question ${questionId} is waiting (answered, withdrawn or unknown).`,
    );
  }
  if (outcome === "wrong_count") {
    return errorReply(
      400,
      "E_INVALID_ARGS",
      "Send one answer per question, in order (an empty string for none).",
    );
  }
  return reply(200, { answered: true });
}
