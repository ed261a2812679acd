import { z } from "zod";
import { builtinToolSchema } from "../../inputSchemas.js";

/** Longest `wait`, whether for a selector or a fixed time. */
export const maxWaitMs = 10_000;

const actions = ["navigate", "click", "type", "screenshot", "get_text", "wait", "console", "close"] as const;

/**
 * What the model sends: one flat object. Providers want a plain object at the top of a tool's
 * schema (a top-level `oneOf` is refused by several), so the per-action rules live in the union
 * below, which the flat object is piped into.
 */
function buildBrowserUseSchema() {
  const wireSchema = z.object({
    action: z.enum(actions),
    url: z.string().min(1).optional(),
    selector: z.string().min(1).optional(),
    text: z.string().optional(),
    submit: z.boolean().optional(),
    path: z.string().min(1).optional(),
    full_page: z.boolean().optional(),
    ms: z.number().int().min(1).max(maxWaitMs).optional(),
  });

  const clickTarget = z
    .object({
      action: z.literal("click"),
      selector: z.string().optional(),
      text: z.string().min(1).optional(),
    })
    .refine((args) => (args.selector === undefined) !== (args.text === undefined), {
      message: "click needs exactly one of selector or text.",
    });

  const waitTarget = z
    .object({ action: z.literal("wait"), selector: z.string().optional(), ms: z.number().optional() })
    .refine((args) => args.selector !== undefined || args.ms !== undefined, {
      message: "wait needs a selector, ms, or both (ms then bounds the wait for the selector).",
    });

  const actionSchema = z.discriminatedUnion("action", [
    z.object({ action: z.literal("navigate"), url: z.string() }),
    clickTarget,
    z.object({
      action: z.literal("type"),
      selector: z.string(),
      text: z.string(),
      submit: z.boolean().optional(),
    }),
    z.object({
      action: z.literal("screenshot"),
      path: z.string().optional(),
      full_page: z.boolean().optional(),
    }),
    z.object({ action: z.literal("get_text"), selector: z.string().optional() }),
    waitTarget,
    z.object({ action: z.literal("console") }),
    z.object({ action: z.literal("close") }),
  ]);
  return wireSchema.pipe(actionSchema);
}

export const browserUseSchema = builtinToolSchema("browser_use", buildBrowserUseSchema);

export type BrowserAction = z.infer<typeof browserUseSchema>;
export type ActionOf<Name extends BrowserAction["action"]> = Extract<BrowserAction, { action: Name }>;
