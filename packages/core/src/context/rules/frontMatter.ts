import { splitCommaList, unquote } from "./commaList.js";

export type FrontMatterValue = string | boolean | string[];

export type FrontMatter =
  | { ok: true; data: Record<string, FrontMatterValue>; body: string }
  | { ok: false; message: string };

const keyLine = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/;
const itemLine = /^\s*-\s+(.*)$|^\s*-$/;

/**
 * The small subset of YAML that rule files use: `key: value` lines, booleans, lists as
 * `[a, b]` or as `- item` lines under a key with no value, `#` comment lines. A file that does
 * not start with `---` has no front matter. Anything else is an error, so a mistake in a rule
 * file is reported rather than half read.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return { ok: true, data: {}, body: lines.join("\n") };
  const end = lines.findIndex((line, index) => index > 0 && line.trimEnd() === "---");
  if (end === -1) return { ok: false, message: "front matter starts with --- on line 1 but is never closed" };

  // A Map, so a key such as `__proto__` is just a key.
  const data = new Map<string, FrontMatterValue>();
  /** The key whose value may continue as `- item` lines: one that was given no value. */
  let listKey: string | undefined;
  for (let index = 1; index < end; index++) {
    const line = lines[index] ?? "";
    const lineNumber = index + 1;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;

    const item = itemLine.exec(line);
    if (item !== null) {
      if (listKey === undefined) return lineError(lineNumber, "a list item has no key above it");
      const current = data.get(listKey);
      data.set(listKey, [...(Array.isArray(current) ? current : []), unquote((item[1] ?? "").trim())]);
      continue;
    }

    const entry = keyLine.exec(line);
    if (entry === null) return lineError(lineNumber, `expected "key: value", got "${trimmed}"`);
    const [, key = "", rawValue = ""] = entry;
    const value = rawValue.trim();
    if (data.has(key)) return lineError(lineNumber, `"${key}" is set twice`);
    if (value.startsWith("[") && !value.endsWith("]"))
      return lineError(lineNumber, `the list of "${key}" is not closed with ]`);
    data.set(key, scalarOrList(value));
    listKey = value === "" ? key : undefined;
  }
  return { ok: true, data: Object.fromEntries(data), body: lines.slice(end + 1).join("\n") };
}

function scalarOrList(value: string): FrontMatterValue {
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  if (value.startsWith("[") && value.endsWith("]")) return splitCommaList(value.slice(1, -1));
  return unquote(value);
}

function lineError(lineNumber: number, problem: string): FrontMatter {
  return { ok: false, message: `front matter line ${lineNumber}: ${problem}` };
}
