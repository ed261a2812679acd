import type { ToolResult } from "../../tool.js";
import { abortableSleep } from "./abortable.js";
import { type ActionOf, maxWaitMs } from "./actionSchema.js";
import type { ConsoleEntry } from "./consoleLog.js";
import { type ActionEnv, describePage, sessionNotes } from "./pageReport.js";

/** Between the texts of several matching elements. */
const elementSeparator = "\n---\n";

export async function getText(args: ActionOf<"get_text">, env: ActionEnv): Promise<ToolResult> {
  const session = env.sessions.current(env.ctx.sessionId, env.settings);
  const { page } = session;
  const timeout = env.settings.actionTimeoutMs;
  let heading: string;
  let text: string;
  if (args.selector === undefined) {
    heading = `Text of ${await describePage(page)}:`;
    text = await page.locator("body").innerText({ timeout });
  } else {
    const matches = page.locator(args.selector);
    await matches.first().waitFor({ state: "attached", timeout });
    const texts = await matches.allInnerTexts();
    heading =
      texts.length === 1
        ? `Text of ${args.selector}:`
        : `${texts.length} elements match ${args.selector}; their texts, separated by ---:`;
    text = texts.join(elementSeparator);
  }
  const { maxTextChars } = env.settings;
  const shown = text.length > maxTextChars ? text.slice(0, maxTextChars) : text;
  const lines = [heading, shown.trim() === "" ? "(no visible text)" : shown];
  if (shown.length < text.length) {
    lines.push(
      `[Text cut at ${maxTextChars} of ${text.length} characters; read a part with a narrower selector.]`,
    );
  }
  lines.push(...sessionNotes(session));
  return {
    ok: true,
    output: lines.join("\n"),
    metadata: { chars: text.length, truncated: shown.length < text.length },
  };
}

export async function wait(args: ActionOf<"wait">, env: ActionEnv): Promise<ToolResult> {
  if (args.selector === undefined) {
    const ms = args.ms ?? 0;
    await abortableSleep(ms, env.ctx.signal);
    return { ok: true, output: `Waited ${ms} ms.` };
  }
  const session = env.sessions.current(env.ctx.sessionId, env.settings);
  const timeout = Math.min(args.ms ?? env.settings.actionTimeoutMs, maxWaitMs);
  await session.page.locator(args.selector).first().waitFor({ state: "visible", timeout });
  const lines = [`${args.selector} is visible.`, ...sessionNotes(session)];
  return { ok: true, output: lines.join("\n") };
}

export function readConsole(env: ActionEnv): ToolResult {
  const session = env.sessions.current(env.ctx.sessionId, env.settings);
  const { entries, dropped } = session.console.take();
  const lines = entries.map(formatEntry);
  if (dropped > 0) lines.unshift(`[${dropped} older message(s) were dropped to save space.]`);
  if (lines.length === 0) lines.push("No console messages since the last check.");
  lines.push(...sessionNotes(session));
  return { ok: true, output: lines.join("\n"), metadata: { messages: entries.length, dropped } };
}

function formatEntry(entry: ConsoleEntry): string {
  const where = entry.location === undefined ? "" : ` (${entry.location})`;
  return `[${entry.level}] ${entry.text}${where}`;
}
