import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { errorReply, type Reply, readJsonBody } from "./httpJson.js";

export type Parsed<T> = { ok: true; data: T } | { ok: false; reply: Reply };

function invalid(error: z.ZodError): Reply {
  return errorReply(400, "E_INVALID_ARGS", z.prettifyError(error));
}

/** Reads and validates a body at the boundary: nothing unchecked reaches a session or a service. */
export async function readBody<T>(request: IncomingMessage, schema: z.ZodType<T>): Promise<Parsed<T>> {
  const read = await readJsonBody(request);
  if (!read.ok) return read;
  const parsed = await schema.safeParseAsync(read.value);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reply: invalid(parsed.error) };
}

/**
 * Validates the query string. A parameter given twice arrives as an array, which a string field
 * refuses, rather than one of its values being picked silently. The access token is not a parameter.
 */
export async function readQuery<T>(url: URL, schema: z.ZodType<T>): Promise<Parsed<T>> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    if (name === "token") continue;
    const earlier = query[name];
    query[name] = earlier === undefined ? value : [earlier, value].flat();
  }
  const parsed = await schema.safeParseAsync(query);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reply: invalid(parsed.error) };
}

export function methodNotAllowed(method: string | undefined): Reply {
  return errorReply(405, "E_METHOD_NOT_ALLOWED", `${method ?? "This method"} is not allowed here.`);
}

export function noRoute(pathname: string): Reply {
  return errorReply(404, "E_NOT_FOUND", `No API route ${pathname}.`);
}
