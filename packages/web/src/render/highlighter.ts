import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// The core build plus the languages a coding agent's output mostly holds keeps the bundle small;
// each definition also registers its aliases (ts, js, sh, py, html, yml, md, ...).
const languages = {
  bash,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);

/** Names a fence uses for a registered language under another name. */
const fenceAliases: Readonly<Record<string, string>> = {
  jsonc: "json",
  tsx: "typescript",
  jsx: "javascript",
};

/** The registered language a code fence's info string ("ts", "Python title=x") names, if any. */
export function languageOf(info: string | undefined): string | undefined {
  const word = info?.trim().split(/\s+/, 1)[0]?.toLowerCase();
  if (!word) return undefined;
  const name = fenceAliases[word] ?? word;
  return hljs.getLanguage(name) === undefined ? undefined : name;
}

/**
 * `code` highlighted as `language` (a name `languageOf` returned): HTML in which the code's own
 * text is escaped, with `<span class="hljs-…">` around tokens.
 */
export function highlightCode(code: string, language: string): string {
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
