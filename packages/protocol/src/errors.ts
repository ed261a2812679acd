import { z } from "zod";

/** The error codes of the specification (§11): number, whether a retry can help, a hint for the model. */
export const errorCatalog = {
  E_TOOL_NOT_FOUND: {
    number: 1001,
    retryable: false,
    hint: "Use one of the tools offered to you; check the spelling.",
  },
  E_INVALID_ARGS: {
    number: 1002,
    retryable: true,
    hint: "Fix the arguments to match the tool's schema and call again.",
  },
  E_SECURITY_BLOCKED: {
    number: 1003,
    retryable: false,
    hint: "The policy forbids this; choose another approach.",
  },
  E_TOOL_TIMEOUT: {
    number: 1004,
    retryable: true,
    hint: "The tool ran out of time; narrow the request or raise the timeout.",
  },
  E_TOOL_EXECUTION: { number: 1005, retryable: true, hint: "Read the error, fix the cause, then try again." },
  E_USER_REJECTED: {
    number: 1006,
    retryable: false,
    hint: "The user declined; change course and do not repeat this call.",
  },
  E_CANCELLED: { number: 1007, retryable: false, hint: "The run was cancelled by the user." },
  E_FILE_NOT_FOUND: {
    number: 2001,
    retryable: false,
    hint: "Check the path; list the directory to find the file.",
  },
  E_PATH_TRAVERSAL: { number: 2002, retryable: false, hint: "Only paths inside the project may be used." },
  E_FILE_TOO_LARGE: { number: 2003, retryable: false, hint: "Read the file in parts with offset and limit." },
  E_MULTIPLE_MATCHES: {
    number: 2004,
    retryable: true,
    hint: "Include more surrounding lines so old_string matches once.",
  },
  E_NOT_FOUND: { number: 2005, retryable: true, hint: "Re-read the file and copy old_string exactly." },
  E_STALE_FILE: {
    number: 2006,
    retryable: true,
    hint: "The file changed since you read it; read it again first.",
  },
  E_BINARY_FILE: {
    number: 2007,
    retryable: false,
    hint: "This is a binary file; it cannot be read as text.",
  },
  E_NO_CHANGE: {
    number: 2008,
    retryable: false,
    hint: "old_string and new_string are identical; nothing to do.",
  },
  E_COMMAND_BLOCKED: { number: 3001, retryable: false, hint: "This command is forbidden; find a safer way." },
  E_COMMAND_TIMEOUT: {
    number: 3002,
    retryable: true,
    hint: "The command timed out; run it in the background or narrow it.",
  },
  E_SANDBOX_DENIED: {
    number: 3003,
    retryable: false,
    hint: "The sandbox denied this; ask the user to allow it.",
  },
  E_NETWORK_BLOCKED: { number: 3004, retryable: false, hint: "This address may not be reached." },
  E_LLM_TIMEOUT: { number: 4001, retryable: true, hint: "The model did not answer in time." },
  E_LLM_RATE_LIMIT: {
    number: 4002,
    retryable: true,
    hint: "The provider is rate limiting; wait or use another model.",
  },
  E_LLM_AUTH: { number: 4003, retryable: false, hint: "Set a valid API key for this provider." },
  E_LLM_ERROR: { number: 4004, retryable: true, hint: "The provider failed; try again." },
  E_CONTEXT_OVERFLOW: { number: 4005, retryable: true, hint: "The conversation is too long; compact it." },
  E_ITERATION_LIMIT: {
    number: 5001,
    retryable: false,
    hint: "The iteration limit was reached; say 'continue' to go on.",
  },
  E_LOOP_DETECTED: { number: 5002, retryable: false, hint: "The same call kept repeating; change approach." },
  E_SESSION_NOT_FOUND: {
    number: 6001,
    retryable: false,
    hint: "List sessions with `lathe sessions list` and use one of their ids.",
  },
  E_STORAGE: {
    number: 6002,
    retryable: false,
    hint: "The session database could not be read or written; check $LATHE_HOME.",
  },
  E_CHECKPOINT: {
    number: 6003,
    retryable: false,
    hint: "The checkpoint could not be taken or restored; list them with `lathe checkpoints list`.",
  },
  E_MCP_START: {
    number: 7001,
    retryable: false,
    hint: "The MCP server did not start; check its entry in mcp.json with `lathe mcp list`.",
  },
  E_MCP_PROMPT_NOT_FOUND: {
    number: 7002,
    retryable: false,
    hint: "No running MCP server offers this prompt; type /mcp__<server>__<prompt> as the server names it.",
  },
  E_CLOUD_URL: {
    number: 8001,
    retryable: false,
    hint: "Give a PostgreSQL URL (postgres://user@host:port/database): --database, LATHE_DATABASE_URL, or `lathe cloud up`.",
  },
  E_CLOUD_UNREACHABLE: {
    number: 8002,
    retryable: true,
    hint: "The task database did not answer; check that PostgreSQL runs at that address (`lathe cloud up` starts one here).",
  },
  E_REPO_UNAVAILABLE: {
    number: 8003,
    retryable: false,
    hint: "The task's repository could not be read or cloned; check its URL or path and the ref.",
  },
  E_TASK_NOT_FOUND: {
    number: 8004,
    retryable: false,
    hint: "List tasks with `lathe cloud list` and use one of their ids (a unique prefix is enough).",
  },
  E_BUNDLE_TOO_LARGE: {
    number: 8005,
    retryable: false,
    hint: "The local repository is larger than the upload cap; push it to a remote and submit with --repo URL, or raise cloud.bundleCapBytes.",
  },
  E_TASK_STATE: {
    number: 8006,
    retryable: false,
    hint: "The task is not in a state that allows this; see `lathe cloud show`.",
  },
  E_PIPELINE: {
    number: 8007,
    retryable: false,
    hint: "Fix the pipeline file in .lathe/pipelines (or trust the folder with `lathe trust`), or choose a built-in pipeline.",
  },
  E_BUDGET_EXCEEDED: {
    number: 8008,
    retryable: false,
    hint: "The task reached one of its limits (tokens, cost or time); submit it again with a larger budget.",
  },
  E_TASK_LOCAL: {
    number: 8009,
    retryable: false,
    hint: "The router keeps this task on this machine (it needs this machine, or the repository holds secrets); run it here, or send it anyway.",
  },
} as const satisfies Record<string, { number: number; retryable: boolean; hint: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export const errorCodeSchema = z.enum(Object.keys(errorCatalog) as [ErrorCode, ...ErrorCode[]]);

export const latheErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  hint: z.string(),
});

/** An error as a value: what callers must handle, what goes to the model, what the user sees. */
export type LatheErrorInfo = z.infer<typeof latheErrorSchema>;

export function errorInfo(code: ErrorCode, message: string): LatheErrorInfo {
  const entry = errorCatalog[code];
  return { code, message, retryable: entry.retryable, hint: entry.hint };
}

/** Thrown where unwinding is the natural control flow (aborted streams, fatal provider errors). */
export class LatheError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly hint: string;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LatheError";
    this.code = code;
    this.retryable = errorCatalog[code].retryable;
    this.hint = errorCatalog[code].hint;
  }
  toInfo(): LatheErrorInfo {
    return { code: this.code, message: this.message, retryable: this.retryable, hint: this.hint };
  }
}
