import { type ApprovalScope, approvalModeSchema } from "@lathe/core";
import { editorStateDeltaSchema, editorStateSchema, modeSchema } from "@lathe/protocol";
import { z } from "zod";
import { projectRootField } from "./requestQueries.js";

/** The bodies the HTTP API accepts; anything else is a 400 naming the field. */
export const createSessionBody = z.strictObject({
  projectRoot: projectRootField,
  resume: z.string().min(1).optional(),
  mode: modeSchema.optional(),
  model: z.string().min(1).optional(),
});

/** `POST /api/projects`: the user opens a folder, so its files and settings may be read. */
export const openProjectBody = z.strictObject({ projectRoot: projectRootField });

export const messageBody = z.strictObject({
  text: z.string().refine((text) => text.trim() !== "", "text must not be empty"),
});

const approvalScopeSchema = z.enum(["session", "project-local", "user"]) satisfies z.ZodType<ApprovalScope>;

export const approvalBody = z.discriminatedUnion("decision", [
  z.strictObject({ decision: z.literal("accept"), always: approvalScopeSchema.optional() }),
  z.strictObject({ decision: z.literal("reject"), message: z.string().optional() }),
]);

export const questionBody = z.strictObject({ answers: z.array(z.string()) });

export const editorBody = z.union([
  z.strictObject({ full: editorStateSchema }),
  z.strictObject({ delta: editorStateDeltaSchema }),
]);

export const modeBody = z.strictObject({ mode: modeSchema });

export const approvalModeBody = z.strictObject({ approvalMode: approvalModeSchema });

export const compactBody = z.strictObject({ focus: z.string().min(1).optional() });

/** An empty body: the routes that take none still refuse unknown fields. */
export const emptyBody = z.strictObject({});

/** Both parts by default; asking for neither restores nothing and is refused. */
export const restoreBody = z
  .strictObject({ code: z.boolean().default(true), conversation: z.boolean().default(true) })
  .refine((parts) => parts.code || parts.conversation, "restore the code, the conversation or both");

const serverName = z
  .string()
  .regex(/^[\w.-]{1,64}$/, "a server name is letters, digits, '_', '.' or '-', at most 64 of them");
const textMap = z.record(z.string().min(1), z.string());

/** A stdio server (a command and its arguments) or an HTTP one (a URL): one or the other. */
export const mcpServerBody = z.union([
  z.strictObject({
    name: serverName,
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: textMap.optional(),
  }),
  z.strictObject({ name: serverName, url: z.url({ protocol: /^https?$/ }), headers: textMap.optional() }),
]);

export const rejectBody = z.strictObject({
  path: z.string().min(1),
  version: z.string().min(1),
  hunks: z.array(z.number().int().nonnegative()).min(1).optional(),
});

/** The services check the settings themselves (against the face's own schema); here only the shape. */
export const settingsBody = z.strictObject({ settings: z.record(z.string(), z.unknown()) });

export const keyBody = z.strictObject({
  key: z
    .string()
    .trim()
    .min(1, "key must not be empty")
    .max(4096)
    .refine((key) => !/\s/.test(key), "key must not contain spaces or line breaks"),
});
