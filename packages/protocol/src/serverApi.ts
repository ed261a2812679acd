import { z } from "zod";
import {
  approvalModeSchema,
  eventSchema,
  modeSchema,
  riskSchema,
  runStateSchema,
  todoItemSchema,
  userQuestionSchema,
} from "./events.js";
import { mentionKinds } from "./mentionKinds.js";
import { messageSchema, usageSchema } from "./messages.js";
import { spanRecordSchema } from "./spans.js";

/**
 * The shapes `lathe serve` answers with (SPEC §8), shared by the server, which builds them, and
 * the web UI, which reads them. Requests are checked by the server's own body schemas.
 */

/** `GET /api/info`: what a client needs before it opens a session. */
export const serverInfoSchema = z.object({
  version: z.string(),
  /** The directory `lathe serve` was started in: the project a new session opens by default. */
  defaultProjectRoot: z.string(),
  /** `provider:model` choices: the configured model, its fallbacks and the catalog's models of providers with a key. */
  models: z.array(z.string()),
  defaultModel: z.string().optional(),
  defaultMode: modeSchema,
  defaultApprovalMode: approvalModeSchema,
});
export type ServerInfo = z.infer<typeof serverInfoSchema>;

/** `GET /api/sessions`: the sessions the server holds open. */
export const liveSessionSummarySchema = z.object({
  id: z.string(),
  projectRoot: z.string(),
  state: runStateSchema,
  mode: modeSchema,
  lastSeq: z.number().int(),
});
export type LiveSessionSummary = z.infer<typeof liveSessionSummarySchema>;

/** An approval a run is waiting on; answered with `POST /api/sessions/:id/approvals/:approvalId`. */
export const pendingApprovalSchema = z.object({
  approvalId: z.string(),
  callId: z.string(),
  name: z.string(),
  arguments: z.unknown(),
  risk: riskSchema,
  reason: z.string(),
  /** The exact permission rules an "always" answer saves, shown before saving; absent: none. */
  alwaysRules: z.array(z.string()).optional(),
  requestedAt: z.number(),
});

/** Questions the model asked (`ask_user`); answered with `POST /api/sessions/:id/questions/:questionId`. */
export const pendingQuestionSchema = z.object({
  questionId: z.string(),
  callId: z.string(),
  questions: z.array(userQuestionSchema),
  askedAt: z.number(),
});

/** `GET /api/sessions/:id`. */
export const liveSessionDetailSchema = liveSessionSummarySchema.extend({
  streamId: z.string(),
  messages: z.array(messageSchema),
  todos: z.array(todoItemSchema),
  /** Tokens and cost of the whole session so far, earlier runs included. */
  usage: usageSchema,
  pendingApprovals: z.array(pendingApprovalSchema),
  pendingQuestions: z.array(pendingQuestionSchema),
});
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;
export type PendingQuestion = z.infer<typeof pendingQuestionSchema>;
export type LiveSessionDetail = z.infer<typeof liveSessionDetailSchema>;

/** `GET /api/stored-sessions?projectRoot=`: sessions in the database, newest first (every project's without `projectRoot`). */
export const storedSessionSummarySchema = z.object({
  id: z.string(),
  title: z.string().optional(),
  projectRoot: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messageCount: z.number().int().nonnegative(),
  /** The session this one was forked from. */
  parentId: z.string().optional(),
});
export type StoredSessionSummary = z.infer<typeof storedSessionSummarySchema>;

/** `GET /api/sessions/:id/checkpoints`, oldest first. */
export const checkpointSummarySchema = z.object({
  id: z.string(),
  reason: z.enum(["user_message", "tool_call", "before_restore", "before_reject", "before_apply"]),
  messageId: z.string().optional(),
  callId: z.string().optional(),
  commit: z.string(),
  createdAt: z.number(),
});
export type CheckpointSummary = z.infer<typeof checkpointSummarySchema>;

/** `GET /api/sessions/:id/checkpoints/:checkpointId/diff`: the project now against the checkpoint. */
export const checkpointDiffSchema = z.object({
  /** Seen from the checkpoint: a file created since is "added". */
  files: z.array(z.object({ path: z.string(), status: z.enum(["added", "modified", "deleted"]) })),
  /** A unified diff. */
  patch: z.string(),
});
export type CheckpointDiffReply = z.infer<typeof checkpointDiffSchema>;

/**
 * `POST /api/sessions/:id/checkpoints/:checkpointId/restore` with `{ code?, conversation? }` (both by
 * default; the conversation goes back only for a checkpoint taken at a user message, and asking for
 * the conversation alone of another checkpoint is an error). An open session must be idle; the
 * server closes it, restores, and opens it again: clients reload it (the stream id changes).
 */
export const checkpointRestoreSchema = z.object({
  written: z.array(z.string()),
  removed: z.array(z.string()),
  /** Present when the conversation was restored. */
  messagesRemoved: z.number().int().nonnegative().optional(),
  /** The full conversation before the restore, kept as a fork. */
  backupSession: z.string().optional(),
  /** The reopened session's new stream; absent when the session was not open on this server. */
  streamId: z.string().optional(),
});
export type CheckpointRestoreReply = z.infer<typeof checkpointRestoreSchema>;

/** One hunk of a file's changes: where it sits on both sides (0-based) and its lines, " ", "-" or "+" first. */
export const changeHunkSchema = z.object({
  oldIndex: z.number().int().nonnegative(),
  oldCount: z.number().int().nonnegative(),
  newIndex: z.number().int().nonnegative(),
  newCount: z.number().int().nonnegative(),
  lines: z.array(z.string()),
});

/**
 * `GET /api/sessions/:id/checkpoints/:checkpointId/changes`: every file changed since the
 * checkpoint (by the agent or by anything else, a command included), hunk by hunk, for a review.
 */
export const checkpointChangesSchema = z.object({
  files: z.array(
    z.object({
      path: z.string(),
      status: z.enum(["added", "modified", "deleted"]),
      /** Rejected whole only: created or deleted since, binary, a link, a mode change, or very large. */
      whole: z.boolean(),
      added: z.number().int().nonnegative(),
      removed: z.number().int().nonnegative(),
      hunks: z.array(changeHunkSchema),
      /** The file's content now; a rejection names it, so a file changed since is left alone. */
      version: z.string(),
    }),
  ),
});
export type CheckpointChangesReply = z.infer<typeof checkpointChangesSchema>;
export type ChangedFile = CheckpointChangesReply["files"][number];

/**
 * `POST /api/sessions/:id/checkpoints/:checkpointId/reject` with `{ path, version, hunks? }`: puts
 * the chosen hunks of one file (all of it without `hunks`) back as the checkpoint had them, after a
 * checkpoint (`before`) whose restore undoes it. The session must be idle.
 */
export const checkpointRejectSchema = z.object({
  written: z.array(z.string()),
  removed: z.array(z.string()),
  /** The checkpoint taken just before, in the session's list: restoring its code undoes the rejection. */
  before: z.string(),
});
export type CheckpointRejectReply = z.infer<typeof checkpointRejectSchema>;

/** `GET /api/sessions/:id/trace`: the stored spans of the session's runs. */
export const traceReplySchema = z.object({ spans: z.array(spanRecordSchema) });
export type TraceReply = z.infer<typeof traceReplySchema>;

/** `GET /api/files?projectRoot=&dir=`: one folder of the project (ignored files left out), folders first. */
export const fileListingSchema = z.object({
  dir: z.string(),
  entries: z.array(z.object({ name: z.string(), path: z.string(), kind: z.enum(["file", "dir"]) })),
});
export type FileListing = z.infer<typeof fileListingSchema>;

/** `GET /api/mentions?projectRoot=&q=`: completions for an `@` the user is typing. */
export const mentionCompletionsSchema = z.object({
  items: z.array(
    z.object({
      kind: z.enum(mentionKinds),
      /** What the list shows. */
      label: z.string(),
      /** What replaces the `@…` being typed, `@` included. */
      insert: z.string(),
      detail: z.string().optional(),
    }),
  ),
});
export type MentionCompletions = z.infer<typeof mentionCompletionsSchema>;

/**
 * `GET /api/settings`; `PUT /api/settings` takes a partial `settings` (top-level fields replace the
 * stored ones whole, `null` removes one) and answers the same shape.
 */
export const settingsReplySchema = z.object({
  /**
   * `$LATHE_HOME/settings.json` as stored, except its secrets (`apiKey` fields, OTLP headers), which
   * read as `"[redacted]"`; that value sent back in a PUT keeps the stored secret.
   */
  settings: z.record(z.string(), z.unknown()),
  /** Key presence only: keys are never sent to a client. `PUT /api/keys/:provider` `{ key }` stores one. */
  providers: z.array(
    z.object({ name: z.string(), hasKey: z.boolean(), source: z.enum(["env", "credentials", "none"]) }),
  ),
});
export type SettingsReply = z.infer<typeof settingsReplySchema>;

/** `GET /api/memories?projectRoot=` (the user's, then the project's); `DELETE /api/memories/:id?projectRoot=`. */
export const memoryListSchema = z.object({
  memories: z.array(
    z.object({
      id: z.string(),
      /** The first line of the content, shortened. */
      title: z.string(),
      content: z.string(),
      scope: z.enum(["user", "project"]),
      updatedAt: z.number(),
    }),
  ),
});
export type MemoryList = z.infer<typeof memoryListSchema>;

/** `GET /api/rules?projectRoot=`: the rule files the context engine would read. */
export const ruleListSchema = z.object({
  rules: z.array(
    z.object({
      name: z.string(),
      /** Relative to the project, or absolute for the user's own (their settings file). */
      path: z.string(),
      /**
       * As the context engine names it: always; auto (attached when a file matching its globs is in
       * context); requested (the model fetches it by its description); manual (only when mentioned).
       */
      activation: z.enum(["always", "auto", "requested", "manual"]),
      description: z.string().optional(),
    }),
  ),
});
export type RuleList = z.infer<typeof ruleListSchema>;

/** `GET /api/mcp?projectRoot=`: the MCP servers configured for the project. */
export const mcpServerListSchema = z.object({
  servers: z.array(
    z.object({
      name: z.string(),
      transport: z.enum(["stdio", "http"]),
      /** The command line or URL, `${env:…}` variables left as written so no secret is shown. */
      target: z.string(),
      /** The file it was configured in. */
      source: z.string(),
      /** In the user's own `mcp.json`: Settings can remove it (a project's files change in the project). */
      removable: z.boolean(),
    }),
  ),
});
export type McpServerList = z.infer<typeof mcpServerListSchema>;

/**
 * `GET /api/mcp/status?projectRoot=`: the servers a session in the project would start, started
 * to see how they fare (then stopped): `failed` carries the start error; `stopped` ran, then died.
 */
export const mcpServerStatusListSchema = z.object({
  servers: z.array(
    z.object({
      name: z.string(),
      transport: z.enum(["stdio", "http"]),
      state: z.enum(["starting", "running", "failed", "stopped"]),
      error: z.string().optional(),
      tools: z.array(z.object({ name: z.string(), description: z.string().optional() })),
      resources: z.array(
        z.object({
          uri: z.string(),
          name: z.string(),
          description: z.string().optional(),
          mimeType: z.string().optional(),
        }),
      ),
      prompts: z.array(
        z.object({
          name: z.string(),
          description: z.string().optional(),
          arguments: z.array(
            z.object({ name: z.string(), description: z.string().optional(), required: z.boolean() }),
          ),
        }),
      ),
    }),
  ),
});
export type McpServerStatusList = z.infer<typeof mcpServerStatusListSchema>;

/**
 * `GET /api/trust?projectRoot=` and `POST /api/trust`: whether the project's files that start
 * programs or widen the policy (hooks, MCP servers, allow rules, agents, commands, pipelines) take
 * effect in its sessions and cloud tasks.
 */
export const trustReplySchema = z.object({
  /** The folder's real path: what the trust is recorded for. */
  projectRoot: z.string(),
  /** `not_needed`: no such files; `changed`: trusted once, but the files changed since. */
  status: z.enum(["not_needed", "trusted", "untrusted", "changed"]),
  /** Whether sessions opened now use the files. */
  trusted: z.boolean(),
  /** How a trusted folder is trusted: its record, or the user's `trustedFolders`/`trustAllFolders`. */
  trustedBy: z.enum(["record", "setting"]).optional(),
  /** sha256 over the files' paths and contents: send it back with `POST` to trust exactly what was shown. */
  fingerprint: z.string(),
  files: z.array(
    z.object({
      /** Relative to the project root. */
      path: z.string(),
      kind: z.enum(["hooks", "mcp", "settings", "agent", "command", "pipeline"]),
      /** What it would run or grant, one line each: `SessionStart hook runs: …`, `allows …`. */
      effects: z.array(z.string()),
    }),
  ),
  /** For `changed`: the files added, edited or removed since the folder was trusted. */
  changes: z.array(z.object({ path: z.string(), change: z.enum(["added", "edited", "removed"]) })),
  /** The trust record could not be read (the folder then counts as untrusted). */
  recordError: z.string().optional(),
});
export type TrustReply = z.infer<typeof trustReplySchema>;

/** Every error the API answers with. */
export const apiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/**
 * What the event socket (`/api/sessions/:id/events?since=&stream=`) sends besides the session's own
 * events. Their `type`s never collide with an event's, so a client tells them apart by `type` alone.
 *
 * Order on every connection: `hello`; `replay_gap` when needed; the replayed events; `pending_input`;
 * then live events, each `pending_input` again whenever the set of waiting requests changes.
 */
export const serverMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("hello"),
    sessionId: z.string(),
    /**
     * Names this run of the session's event stream. Seq numbering starts again at 0 when a stored
     * session is reopened; a client passes the id back as `stream=` so a restart is never
     * mistaken for a continuation.
     */
    streamId: z.string(),
    /** Seq of the newest event so far (-1 before the first): the replay ends there. */
    lastSeq: z.number().int(),
  }),
  z.object({
    type: z.literal("replay_gap"),
    /** The seq the client asked to resume after. */
    since: z.number().int(),
    /**
     * `dropped`: events after `since` fell out of the server's buffer; `restarted`: the stream is
     * not the one the client saw (other `stream` id, or a seq it never reached). Either way the
     * client should reload the session (`GET /api/sessions/:id`) and take the events that follow.
     */
    reason: z.enum(["dropped", "restarted"]),
    /** Events up to this seq are missing (for `dropped`). */
    missingThrough: z.number().int().optional(),
  }),
  z.object({
    type: z.literal("pending_input"),
    approvals: z.array(pendingApprovalSchema),
    questions: z.array(pendingQuestionSchema),
  }),
  /** The engine threw outside its own event stream (a bug): the run may not end with `run_complete`. */
  z.object({ type: z.literal("engine_error"), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** One message of the event socket: a server message or a session event. */
export const streamMessageSchema = z.union([serverMessageSchema, eventSchema]);
export type StreamMessage = z.infer<typeof streamMessageSchema>;
