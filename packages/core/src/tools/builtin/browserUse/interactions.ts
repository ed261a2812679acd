import type { Locator, Page } from "playwright-core";
import type { ToolResult } from "../../tool.js";
import type { ActionOf } from "./actionSchema.js";
import { type ActionEnv, describePage, sessionNotes, settle } from "./pageReport.js";

// Selectors and text reach Playwright's locator API as data. They are never spliced into a script
// run in the page (SPEC §12), so a selector like `a'); steal(); ('` is just a selector that matches
// nothing.

export async function click(args: ActionOf<"click">, env: ActionEnv): Promise<ToolResult> {
  const session = env.sessions.current(env.ctx.sessionId, env.settings);
  const { page } = session;
  const target =
    args.selector !== undefined ? page.locator(args.selector) : await locatorForText(page, args.text ?? "");
  await target.click({ timeout: env.settings.actionTimeoutMs });
  await settle(page, env.settings);
  const what = args.selector !== undefined ? `the element matching ${args.selector}` : `"${args.text}"`;
  const lines = [`Clicked ${what}. The page is ${await describePage(page)}.`, ...sessionNotes(session)];
  return { ok: true, output: lines.join("\n"), metadata: { url: page.url() } };
}

export async function type(args: ActionOf<"type">, env: ActionEnv): Promise<ToolResult> {
  const session = env.sessions.current(env.ctx.sessionId, env.settings);
  const { page } = session;
  const field = page.locator(args.selector);
  const timeout = env.settings.actionTimeoutMs;
  // `fill` replaces the field's content, as a person selecting all and typing would.
  await field.fill(args.text, { timeout });
  if (args.submit === true) {
    await field.press("Enter", { timeout });
    await settle(page, env.settings);
  }
  const done = args.submit === true ? "Typed into and submitted" : "Typed into";
  const lines = [
    `${done} ${args.selector}. The page is ${await describePage(page)}.`,
    ...sessionNotes(session),
  ];
  return { ok: true, output: lines.join("\n"), metadata: { url: page.url() } };
}

/**
 * Elements whose text is exactly `text` when there are any, else those containing it: "Save" should
 * click the Save button, not fail because a paragraph also mentions saving.
 */
async function locatorForText(page: Page, text: string): Promise<Locator> {
  const exact = page.getByText(text, { exact: true });
  return (await exact.count()) > 0 ? exact : page.getByText(text);
}
