import type { IncomingMessage } from "node:http";
import { errorReply, type Reply, reply } from "./httpJson.js";
import type { ProjectPathCache } from "./projectPaths.js";
import type { ServedProjects } from "./servedProjects.js";
import type { ServiceFailureKind, ServiceResult } from "./serviceResult.js";
import type { SessionHub } from "./sessionHub.js";
import type { WorkspaceServices } from "./workspaceServices.js";

/** What every API route may use. */
export interface ApiContext {
  hub: SessionHub;
  /** The projects' files for `@` completion, walked once for a burst of keystrokes. */
  projectPaths: ProjectPathCache;
  /** The projects the routes that take a `projectRoot` answer for. */
  projects: ServedProjects;
  /** Absent: a server of sessions alone (tests, benchmarks); the routes that need them say so. */
  services?: WorkspaceServices;
}

/** One API request as a route group sees it. */
export interface ApiCall {
  request: IncomingMessage;
  url: URL;
  /** The decoded path segments after `/api/<group>`. */
  rest: string[];
  context: ApiContext;
}

const statusOf: Record<ServiceFailureKind, number> = {
  not_found: 404,
  invalid: 400,
  conflict: 409,
  failed: 500,
  unavailable: 503,
};

/** A service's answer as an HTTP reply. */
export function serviceReply<T>(result: ServiceResult<T>, status = 200): Reply {
  if (result.ok) return reply(status, result.value);
  return errorReply(statusOf[result.error.kind], result.error.code, result.error.message);
}

/** Runs a service call, or says that this server was started without services. */
export async function withServices(
  context: ApiContext,
  call: (services: WorkspaceServices) => Promise<Reply>,
): Promise<Reply> {
  if (context.services === undefined) {
    return errorReply(501, "E_NOT_SUPPORTED", "This server was started without workspace services.");
  }
  return call(context.services);
}
