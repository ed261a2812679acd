import { utf8Head } from "../../fileSystem/utf8Slice.js";
import { type RuleEntry, ruleBody, ruleClosing, ruleOpening } from "./ruleBlock.js";

export interface RenderedRules {
  text: string;
  /** Names whose text is in `text`, whole or shortened. */
  included: string[];
  /** Names that did not fit whole: shortened or left out. */
  cut: string[];
}

/** Kept free for the note naming what was cut, so the note itself stays within the budget. */
const noteReserveBytes = 1024;
/** Less room than this is not worth a shortened rule: the next rule is left out instead. */
const minShortenedBytes = 2048;
const separator = "\n\n";
const shortenedMarker = "[… the rest of this rule is cut: the rules budget is used up.]";

/**
 * The rules in priority order, as many as fit in `budgetBytes` of UTF-8. A rule that does not
 * fit whole is shortened to the room left when that room is worth it, and then nothing follows;
 * otherwise it is left out and smaller rules after it may still fit. A note names every rule
 * that was cut.
 */
export function renderRules(entries: readonly RuleEntry[], budgetBytes: number): RenderedRules {
  const blocks = entries.filter((entry) => entry.content.trim() !== "");
  const whole = layOut(blocks, budgetBytes);
  if (whole.cut.length === 0) return { text: whole.parts.join(separator), included: whole.included, cut: [] };
  const fitted = layOut(blocks, budgetBytes - noteReserveBytes);
  const parts = [...fitted.parts, cutNote(fitted.cut, budgetBytes)];
  return { text: parts.join(separator), included: fitted.included, cut: fitted.cut.map((cut) => cut.name) };
}

interface CutRule {
  name: string;
  shortened: boolean;
}

interface Layout {
  parts: string[];
  included: string[];
  cut: CutRule[];
}

function layOut(entries: readonly RuleEntry[], budgetBytes: number): Layout {
  const layout: Layout = { parts: [], included: [], cut: [] };
  let used = 0;
  // A shortened rule takes all the room that was left: nothing comes after it.
  let full = false;
  for (const entry of entries) {
    if (full) {
      layout.cut.push({ name: entry.name, shortened: false });
      continue;
    }
    const extra = layout.parts.length > 0 ? separator.length : 0;
    const body = ruleBody(entry.content.trim());
    const block = `${ruleOpening(entry)}\n${body}\n${ruleClosing}`;
    const size = byteLength(block) + extra;
    if (used + size <= budgetBytes) {
      layout.parts.push(block);
      layout.included.push(entry.name);
      used += size;
      continue;
    }
    const frame = byteLength(`${ruleOpening(entry)}\n\n${shortenedMarker}\n${ruleClosing}`) + extra;
    const room = budgetBytes - used - frame;
    if (room >= minShortenedBytes) {
      const shortened = `${ruleOpening(entry)}\n${headByLines(body, room)}\n${shortenedMarker}\n${ruleClosing}`;
      layout.parts.push(shortened);
      layout.included.push(entry.name);
      used += byteLength(shortened) + extra;
      layout.cut.push({ name: entry.name, shortened: true });
      full = true;
      continue;
    }
    layout.cut.push({ name: entry.name, shortened: false });
  }
  return layout;
}

/** At most `maxBytes` of `text`, ending at a line break when there is one. */
function headByLines(text: string, maxBytes: number): string {
  const head = utf8Head(text, maxBytes);
  const lastBreak = head.lastIndexOf("\n");
  return lastBreak > 0 ? head.slice(0, lastBreak) : head;
}

/** Names every cut rule, or as many as fit in the reserved room and a count of the others. */
function cutNote(cut: readonly CutRule[], budgetBytes: number): string {
  const opening = `[Rules cut to stay within the ${sizeText(budgetBytes)} budget for rules: `;
  const closing = ". Load one in full with fetch_rules when you need it.]";
  const names = cut.map((rule) => (rule.shortened ? `${rule.name} (shortened)` : rule.name));
  for (let shown = names.length; shown > 0; shown--) {
    const rest = names.length - shown;
    const list = names.slice(0, shown).join(", ") + (rest > 0 ? ` and ${rest} more` : "");
    const note = `${opening}${list}${closing}`;
    if (byteLength(note) <= noteReserveBytes) return note;
  }
  return `${opening}${names.length} rules${closing}`;
}

function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
