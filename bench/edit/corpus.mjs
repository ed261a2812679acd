// The edit-matcher drift corpus, shared by the Vitest suite (packages/core/test/tools/editCorpus)
// and the edit benchmark. The cases are plain JSON beside the test; this module only reads them
// and builds the large files some cases name by generator, so the test and the benchmark judge
// the engine against one and the same specification.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const casesDir = fileURLToPath(
  new URL("../../packages/core/test/tools/editCorpus/cases/", import.meta.url),
);

export const refusalCodes = ["E_MULTIPLE_MATCHES", "E_NOT_FOUND", "E_NO_CHANGE", "E_INVALID_ARGS"];

/**
 * Every case of every theme file, with generated files built and expected contents resolved.
 * Throws on a malformed case: a corpus mistake should stop the run, not read as an engine failure.
 */
export function loadCorpus() {
  const cases = [];
  const names = new Set();
  for (const fileName of readdirSync(casesDir)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const theme = fileName.slice(0, -".json".length);
    const raw = JSON.parse(readFileSync(join(casesDir, fileName), "utf8"));
    if (!Array.isArray(raw)) throw new Error(`${fileName}: expected an array of cases`);
    for (const entry of raw) {
      const where = `${fileName}: case ${JSON.stringify(entry?.name)}`;
      const materialised = materialise(entry, theme, where);
      if (names.has(materialised.name)) throw new Error(`${where}: duplicate name`);
      names.add(materialised.name);
      cases.push(materialised);
    }
  }
  return cases;
}

function materialise(entry, theme, where) {
  if (typeof entry?.name !== "string" || entry.name === "") throw new Error(`${where}: missing name`);
  for (const key of ["old_string", "new_string"]) {
    if (typeof entry[key] !== "string") throw new Error(`${where}: ${key} must be a string`);
  }
  if (typeof entry.intended !== "boolean") throw new Error(`${where}: intended must be true or false`);
  const file = typeof entry.file === "string" ? entry.file : generateFile(entry.file, where);
  const expect = entry.expect ?? {};
  let expected;
  if ("content" in expect) {
    if (!entry.intended) throw new Error(`${where}: an expected content needs "intended": true`);
    expected = { content: resolveContent(expect.content, entry.file, file, where) };
    if (expected.content === file) throw new Error(`${where}: expected content equals the file`);
  } else if ("refuse" in expect) {
    if (entry.intended) throw new Error(`${where}: a refusal needs "intended": false`);
    if (!refusalCodes.includes(expect.refuse)) throw new Error(`${where}: unknown code ${expect.refuse}`);
    expected = { refuse: expect.refuse };
  } else {
    throw new Error(`${where}: expect needs "content" or "refuse"`);
  }
  return {
    theme,
    name: entry.name,
    intended: entry.intended,
    note: entry.note,
    file,
    old_string: entry.old_string,
    new_string: entry.new_string,
    replace_all: entry.replace_all === true,
    expect: expected,
  };
}

/**
 * An expected content is literal text, another generated file, or the case's (generated) file with
 * one region rewritten: { "from": "file", "replace": <text found exactly once>, "with": <text> }.
 * The region strings are written with LF and take the generated file's line ending, so a CRLF
 * case reads like the others.
 */
function resolveContent(content, fileSpec, file, where) {
  if (typeof content === "string") return content;
  if (content?.generate) return generateFile(content, where);
  if (content?.from === "file") {
    const eol = typeof fileSpec === "object" && fileSpec.eol === "\r\n" ? "\r\n" : "\n";
    const region = content.replace.replaceAll("\n", eol);
    const replacement = content.with.replaceAll("\n", eol);
    const at = file.indexOf(region);
    if (at < 0) throw new Error(`${where}: expected region not in the file`);
    if (file.indexOf(region, at + 1) >= 0) throw new Error(`${where}: expected region not unique`);
    return file.slice(0, at) + replacement + file.slice(at + region.length);
  }
  throw new Error(`${where}: cannot read expect.content`);
}

const generators = { typescript: typescriptBlock, python: pythonBlock, go: goBlock };

/**
 * A large source file, deterministic for its parameters: { generate: "typescript" | "python" | "go",
 * lines (exact count, default 5000), eol ("\n" | "\r\n"), bom, finalNewline (default true),
 * typeName (TS/Go parameter type, default "Sample") }. Every function has unique name, threshold
 * and kind lines plus lines shared with all others (`return total;`, `}`), which is what makes
 * both unique and ambiguous edits possible on one file.
 */
export function generateFile(spec, where = "generateFile") {
  const block = generators[spec?.generate];
  if (!block) throw new Error(`${where}: unknown generator ${JSON.stringify(spec?.generate)}`);
  const total = spec.lines ?? 5000;
  const typeName = spec.typeName ?? "Sample";
  const lines = [...header(spec.generate, typeName)];
  const random = mulberry32(0x1a7e);
  for (let index = 1; ; index++) {
    const next = block(index, typeName, random);
    if (lines.length + next.length > total) break;
    lines.push(...next);
  }
  const comment = spec.generate === "python" ? "#" : "//";
  while (lines.length < total) lines.push(`${comment} padding ${lines.length + 1}`);
  const eol = spec.eol ?? "\n";
  const body = lines.join(eol) + (spec.finalNewline === false ? "" : eol);
  return (spec.bom ? "\uFEFF" : "") + body;
}

function header(language, typeName) {
  if (language === "python")
    return [
      "# Generated module for the Lathe edit corpus: bucket classes.",
      "from __future__ import annotations",
      "",
      "from .types import Item",
      "",
    ];
  if (language === "go")
    return [
      "// Code generated for the Lathe edit corpus. DO NOT EDIT.",
      "package buckets",
      "",
      'import "fmt"',
      "",
    ];
  return [
    "// Generated module for the Lathe edit corpus: bucket scoring.",
    `import type { Item, ${typeName} } from "./types.js";`,
    "",
  ];
}

const multipliers = ["1.5", "0.75", "2", "1.25", "0.5", "3"];
const id = (index) => String(index).padStart(4, "0");
const threshold = (index) => 1000 + index * 7;
// One function in forty carries a comment with typographic quotes and a dash, as pasted prose does.
const proseComment = (index) => index % 40 === 0;

function typescriptBlock(index, typeName, random) {
  const multiplier = multipliers[Math.floor(random() * multipliers.length)];
  return [
    "/**",
    ` * Scores bucket ${id(index)} against its threshold.`,
    " */",
    `export function scoreBucket${id(index)}(input: ${typeName}): number {`,
    `  const threshold = ${threshold(index)};`,
    `  let total = input.base * ${multiplier};`,
    ...(proseComment(index) ? ["  // Don’t clamp below zero — callers rely on raw totals."] : []),
    "  for (const item of input.items) {",
    `    if (item.kind === "k${id(index)}") {`,
    `      total += item.value * ${(index % 9) + 1};`,
    "    }",
    "  }",
    "  if (total > threshold) {",
    "    return threshold;",
    "  }",
    "  return total;",
    "}",
    "",
  ];
}

function pythonBlock(index, _typeName, random) {
  const multiplier = multipliers[Math.floor(random() * multipliers.length)];
  return [
    "",
    `class Bucket${id(index)}:`,
    `    """Scores bucket ${id(index)} against its threshold."""`,
    "",
    "    def __init__(self, base: float) -> None:",
    "        self.base = base",
    `        self.threshold = ${threshold(index)}`,
    "",
    "    def score(self, items: list[Item]) -> float:",
    `        total = self.base * ${multiplier}`,
    ...(proseComment(index) ? ["        # Don’t clamp below zero — callers rely on raw totals."] : []),
    "        for item in items:",
    `            if item.kind == "k${id(index)}":`,
    `                total += item.value * ${(index % 9) + 1}`,
    "        return min(total, self.threshold)",
    "",
  ];
}

function goBlock(index, typeName, random) {
  const multiplier = multipliers[Math.floor(random() * multipliers.length)];
  return [
    `// ScoreBucket${id(index)} scores bucket ${id(index)} against its threshold.`,
    `func ScoreBucket${id(index)}(in ${typeName}) (float64, error) {`,
    "\tif in.Base < 0 {",
    `\t\treturn 0, fmt.Errorf("bucket ${id(index)}: negative base %v", in.Base)`,
    "\t}",
    `\ttotal := in.Base * ${multiplier}`,
    "\tfor _, item := range in.Items {",
    `\t\tif item.Kind == "k${id(index)}" {`,
    `\t\t\ttotal += item.Value * ${(index % 9) + 1}`,
    "\t\t}",
    "\t}",
    `\tif total > ${threshold(index)} {`,
    `\t\treturn ${threshold(index)}, nil`,
    "\t}",
    "\treturn total, nil",
    "}",
    "",
  ];
}

// A small seeded generator (mulberry32): the same file on every machine and every run.
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * How the engine's outcome compares with a case's expectation. "wrong-edit" is any edit whose text
 * differs from the intended one — including an edit on a case that must be refused — which is what
 * the corpus calls a wrong-location edit; `outsideIntendedLines` tells whether it also touched lines
 * the intended edit leaves alone (a different place, not just different text at the right place).
 */
export function judge(testCase, outcome) {
  const { expect } = testCase;
  if (outcome.ok) {
    if ("content" in expect && outcome.content === expect.content) return { verdict: "applied" };
    const intended = "content" in expect ? changedLineSpan(testCase.file, expect.content) : undefined;
    const actual = changedLineSpan(testCase.file, outcome.content);
    const outsideIntendedLines =
      intended === undefined || actual.first < intended.first || actual.last > intended.last;
    return { verdict: "wrong-edit", outsideIntendedLines };
  }
  if ("content" in expect) return { verdict: "missed", code: outcome.error.code };
  if (outcome.error.code === expect.refuse) return { verdict: "refused" };
  return { verdict: "refused-other-code", code: outcome.error.code };
}

/**
 * The lines of `before` (1-based, inclusive) that differ from `after`, found by trimming the common
 * leading and trailing lines. An insertion between two lines yields last = first - 1.
 */
export function changedLineSpan(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  return { first: head + 1, last: a.length - tail };
}

/** The first line where two texts differ, with both versions, for a readable failure message. */
export function firstDifference(expected, actual) {
  const e = expected.split("\n");
  const a = actual.split("\n");
  let line = 0;
  while (line < e.length && line < a.length && e[line] === a[line]) line++;
  const show = (lines) => (line < lines.length ? JSON.stringify(lines[line]) : "(end of text)");
  return `line ${line + 1}: expected ${show(e)}, got ${show(a)}`;
}
