import type { z } from "zod";
import type { ApiCall } from "./apiContext.js";
import { errorReply, type Reply } from "./httpJson.js";
import { type Parsed, readQuery } from "./requestParsing.js";

/**
 * Reads a query that names a project and lets it through only for a project this server serves:
 * any other directory is refused without being read.
 */
export async function readProjectQuery<T extends { projectRoot: string }>(
  call: ApiCall,
  schema: z.ZodType<T>,
): Promise<Parsed<T>> {
  const query = await readQuery(call.url, schema);
  if (!query.ok) return query;
  const refusal = await projectAccessRefusal(call, query.data.projectRoot);
  return refusal ? { ok: false, reply: refusal } : query;
}

/** The refusal for a project this server does not serve; undefined for one it does. */
export async function projectAccessRefusal(call: ApiCall, projectRoot: string): Promise<Reply | undefined> {
  return (await call.context.projects.serves(projectRoot)) ? undefined : notServed(projectRoot);
}

function notServed(projectRoot: string): Reply {
  return errorReply(
    403,
    "E_PROJECT_NOT_OPEN",
    `${projectRoot} is not a project of this server: open a session there (or open the project) first.`,
  );
}
