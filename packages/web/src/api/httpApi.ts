import type {
  CheckpointChangesReply,
  CheckpointDiffReply,
  CheckpointRejectReply,
  CheckpointRestoreReply,
  CheckpointSummary,
  FileListing,
  LiveSessionDetail,
  LiveSessionSummary,
  McpServerList,
  McpServerStatusList,
  MemoryList,
  MentionCompletions,
  Mode,
  RuleList,
  ServerInfo,
  SettingsReply,
  StoredSessionSummary,
  TraceReply,
  TrustReply,
} from "@lathe/protocol";

/** An API failure as the server reports it (`{ error: { code, message } }`) or as the network does. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Calls `lathe serve`'s HTTP API. The access token travels in the HttpOnly cookie the server set
 * when the page was first opened, so nothing here handles it.
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiFailure(0, "E_NETWORK", error instanceof Error ? error.message : String(error));
  }
  const text = await response.text();
  const parsed: unknown = text === "" ? {} : JSON.parse(text);
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } }).error;
    throw new ApiFailure(response.status, error?.code ?? "E_HTTP", error?.message ?? response.statusText);
  }
  return parsed as T;
}

export const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
};

const session = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export type ApprovalScope = "session" | "project-local" | "user";

export const api = {
  info: () => call<ServerInfo>("GET", "/api/info"),
  /** The server serves a folder's files, settings and trust only once it is opened (or has sessions). */
  openProject: (projectRoot: string) =>
    call<{ projectRoot: string }>("POST", "/api/projects", { projectRoot }),
  liveSessions: () => call<LiveSessionSummary[]>("GET", "/api/sessions"),
  storedSessions: (projectRoot?: string) =>
    call<StoredSessionSummary[]>("GET", `/api/stored-sessions${query({ projectRoot })}`),
  openSession: (request: { projectRoot: string; resume?: string; mode?: Mode; model?: string }) =>
    call<{ id: string; streamId: string }>("POST", "/api/sessions", request),
  closeSession: (id: string) => call<{ closed: boolean }>("DELETE", session(id)),
  sessionDetail: (id: string) => call<LiveSessionDetail>("GET", session(id)),
  send: (id: string, text: string) => call<{ queued: boolean }>("POST", `${session(id)}/messages`, { text }),
  cancel: (id: string) => call<{ cancelled: boolean }>("POST", `${session(id)}/cancel`, {}),
  setMode: (id: string, mode: Mode) => call<{ mode: Mode }>("POST", `${session(id)}/mode`, { mode }),
  setApprovalMode: (id: string, approvalMode: string) =>
    call<{ approvalMode: string }>("POST", `${session(id)}/approval-mode`, { approvalMode }),
  compact: (id: string, focus?: string) =>
    call<{ compacted: boolean }>("POST", `${session(id)}/compact`, focus ? { focus } : {}),
  approve: (id: string, approvalId: string, always?: ApprovalScope) =>
    call<{ answered: boolean }>(
      "POST",
      `${session(id)}/approvals/${encodeURIComponent(approvalId)}`,
      always ? { decision: "accept", always } : { decision: "accept" },
    ),
  reject: (id: string, approvalId: string, message?: string) =>
    call<{ answered: boolean }>(
      "POST",
      `${session(id)}/approvals/${encodeURIComponent(approvalId)}`,
      message ? { decision: "reject", message } : { decision: "reject" },
    ),
  answer: (id: string, questionId: string, answers: string[]) =>
    call<{ answered: boolean }>("POST", `${session(id)}/questions/${encodeURIComponent(questionId)}`, {
      answers,
    }),
  checkpoints: (id: string) => call<CheckpointSummary[]>("GET", `${session(id)}/checkpoints`),
  checkpointDiff: (id: string, checkpointId: string) =>
    call<CheckpointDiffReply>("GET", `${session(id)}/checkpoints/${encodeURIComponent(checkpointId)}/diff`),
  restoreCheckpoint: (
    id: string,
    checkpointId: string,
    what: { code?: boolean; conversation?: boolean } = {},
  ) =>
    call<CheckpointRestoreReply>(
      "POST",
      `${session(id)}/checkpoints/${encodeURIComponent(checkpointId)}/restore`,
      what,
    ),
  checkpointChanges: (id: string, checkpointId: string) =>
    call<CheckpointChangesReply>(
      "GET",
      `${session(id)}/checkpoints/${encodeURIComponent(checkpointId)}/changes`,
    ),
  rejectChanges: (
    id: string,
    checkpointId: string,
    what: { path: string; version: string; hunks?: number[] },
  ) =>
    call<CheckpointRejectReply>(
      "POST",
      `${session(id)}/checkpoints/${encodeURIComponent(checkpointId)}/reject`,
      what,
    ),
  trace: (id: string) => call<TraceReply>("GET", `${session(id)}/trace`),
  files: (projectRoot: string, dir = "") =>
    call<FileListing>("GET", `/api/files${query({ projectRoot, dir })}`),
  mentions: (projectRoot: string, q: string) =>
    call<MentionCompletions>("GET", `/api/mentions${query({ projectRoot, q })}`),
  settings: () => call<SettingsReply>("GET", "/api/settings"),
  updateSettings: (settings: Record<string, unknown>) =>
    call<SettingsReply>("PUT", "/api/settings", { settings }),
  setKey: (provider: string, key: string) =>
    call<{ stored: boolean }>("PUT", `/api/keys/${encodeURIComponent(provider)}`, { key }),
  memories: (projectRoot: string) => call<MemoryList>("GET", `/api/memories${query({ projectRoot })}`),
  deleteMemory: (projectRoot: string, memoryId: string) =>
    call<{ deleted: boolean }>(
      "DELETE",
      `/api/memories/${encodeURIComponent(memoryId)}${query({ projectRoot })}`,
    ),
  rules: (projectRoot: string) => call<RuleList>("GET", `/api/rules${query({ projectRoot })}`),
  mcpServers: (projectRoot: string) => call<McpServerList>("GET", `/api/mcp${query({ projectRoot })}`),
  addMcpServer: (
    projectRoot: string,
    server: { name: string } & ({ command: string; args: string[] } | { url: string }),
  ) => call<{ name: string; file: string }>("POST", `/api/mcp${query({ projectRoot })}`, server),
  removeMcpServer: (projectRoot: string, name: string) =>
    call<{ name: string; file: string }>(
      "DELETE",
      `/api/mcp/${encodeURIComponent(name)}${query({ projectRoot })}`,
    ),
  mcpStatus: (projectRoot: string) =>
    call<McpServerStatusList>("GET", `/api/mcp/status${query({ projectRoot })}`),
  trust: (projectRoot: string) => call<TrustReply>("GET", `/api/trust${query({ projectRoot })}`),
  grantTrust: (projectRoot: string, fingerprint: string) =>
    call<TrustReply>("POST", "/api/trust", { projectRoot, fingerprint }),
};
