import { z } from "zod";

/** Longest `wait`, whether for a selector or a fixed time. */
export const maxWaitMs = 10_000;

const actions = ["navigate", "click", "type", "screenshot", "get_text", "wait", "console", "close"] as const;

/**
 * What the model sends: one flat object. Providers want a plain object at the top of a tool's
 * schema (a top-level `oneOf` is refused by several), so the per-action rules live in the union
 * below, which the flat object is piped into.
 */
const wireSchema = z.object({
  action: z.enum(actions).describe("What to do; see the tool description for the fields each action uses."),
  url: z.string().min(1).optional().describe("navigate: the http(s) URL to open."),
  selector: z
    .string()
    .min(1)
    .optional()
    .describe("click, type, get_text, wait: a Playwright selector (CSS, or `text=…`, `role=…`, `xpath=…`)."),
  text: z
    .string()
    .optional()
    .describe("type: the text to enter. click: the visible text of the element to click."),
  submit: z.boolean().optional().describe("type: press Enter after typing (submits the form)."),
  path: z
    .string()
    .min(1)
    .optional()
    .describe("screenshot: where to save the PNG, inside the project (default: Lathe's tool-output folder)."),
  full_page: z
    .boolean()
    .optional()
    .describe("screenshot: the whole scrollable page instead of the viewport."),
  ms: z
    .number()
    .int()
    .min(1)
    .max(maxWaitMs)
    .optional()
    .describe(
      `wait: milliseconds to wait, or with a selector the longest wait for it (at most ${maxWaitMs}).`,
    ),
});

const clickTarget = z
  .object({ action: z.literal("click"), selector: z.string().optional(), text: z.string().min(1).optional() })
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

export const browserUseSchema = wireSchema.pipe(actionSchema);

export type BrowserAction = z.infer<typeof browserUseSchema>;
export type ActionOf<Name extends BrowserAction["action"]> = Extract<BrowserAction, { action: Name }>;
