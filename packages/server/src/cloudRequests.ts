import { cloudApprovalModeSchema, cloudTaskStatusSchema } from "@lathe/protocol";
import { z } from "zod";
import { projectRootField } from "./requestQueries.js";

/** The cloud routes' bodies and queries; anything else is a 400 naming the field, and nothing changes. */

/** A whole number in a query string, within bounds. */
const queryNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const cloudInfoQuery = z.strictObject({ projectRoot: projectRootField });

export const cloudTasksQuery = z.strictObject({
  status: cloudTaskStatusSchema.optional(),
  limit: queryNumber(1, 200).default(50),
});

/** `after`: the last seq the page has (0 or absent: from the start). */
export const cloudEventsQuery = z.strictObject({ after: queryNumber(0, Number.MAX_SAFE_INTEGER).default(0) });

/** What `Last-Event-ID` may hold: the seq of the last event a reconnecting page received. */
export const lastEventId = queryNumber(0, Number.MAX_SAFE_INTEGER);

export const cloudSubmitBody = z.strictObject({
  projectRoot: projectRootField,
  prompt: z.string().trim().min(1, "prompt must not be empty").max(100_000),
  pipeline: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]{0,59}$/, "pipeline is a pipeline's name: letters, digits, '_', '.' or '-'")
    .optional(),
  attempts: z.number().int().min(1).max(8).default(1),
  verify: z.string().trim().min(1, "verify must not be empty when given").max(2_000).optional(),
  budget: z
    .strictObject({
      tokens: z.number().int().positive().optional(),
      costUsd: z.number().positive().optional(),
      seconds: z.number().int().positive().optional(),
    })
    .optional(),
  approvalMode: cloudApprovalModeSchema.default("auto_edit"),
  /** Send it even when the router would keep it on this machine. */
  forceCloud: z.boolean().default(false),
});

export const cloudAnswerBody = z.strictObject({
  allow: z.boolean(),
  message: z.string().max(2_000).optional(),
  stepIndex: z.number().int().nonnegative().optional(),
});

export const cloudApplyBody = z.strictObject({
  projectRoot: projectRootField,
  attempt: z.number().int().min(1).max(8).optional(),
});
