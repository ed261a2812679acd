import { eventSchema, riskSchema } from "@lathe/protocol";
import { z } from "zod";

/** An approval the run is waiting on; answered with `POST /api/sessions/:id/approvals/:approvalId`. */
export const pendingApprovalSchema = z.object({
  approvalId: z.string(),
  callId: z.string(),
  name: z.string(),
  arguments: z.unknown(),
  risk: riskSchema,
  reason: z.string(),
  requestedAt: z.number(),
});
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;

/** Questions the model asked (`ask_user`); answered with `POST /api/sessions/:id/questions/:questionId`. */
export const pendingQuestionSchema = z.object({
  questionId: z.string(),
  callId: z.string(),
  questions: z.array(z.object({ question: z.string(), options: z.array(z.string()).optional() })),
  askedAt: z.number(),
});
export type PendingQuestion = z.infer<typeof pendingQuestionSchema>;

/**
 * What the event socket sends besides the session's own events. Their `type`s never collide with
 * an event's, so a client tells them apart by `type` alone (a test holds this).
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

/** One message of the event socket: a session event or a server message. */
export const streamMessageSchema = z.union([serverMessageSchema, eventSchema]);
export type StreamMessage = z.infer<typeof streamMessageSchema>;
