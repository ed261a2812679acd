#!/usr/bin/env node
// Checks the layering of packages/core/src (docs/ARCHITECTURE.md) from the import statements of
// its .ts files, and exits 1 listing every offending import:
//   (a) a capability folder (anything but agent/) imports agent/;
//   (b) a stand-alone capability imports a capability that sits above it;
//   (c) files of packages/core/src import each other in a cycle (type-only imports count too).
// Plain Node, no dependency: imports are found with a regular expression over the source text
// with comments removed, and only relative specifiers are followed.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Folders that stand alone, and the folders they must not import. */
export const standAlone = [
  "store",
  "processIdentity",
  "planning",
  "llm",
  "git",
  "secrets",
  "cancellation",
  "fileSystem",
];
export const above = ["tools", "agent", "context", "codeIntel", "hooks", "processes", "mcp", "trust"];

/** Removes comments (keeping string literals, so `"//"` in a string stays). */
function stripComments(text) {
  return text.replace(
    /("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (match, str) => (str ? str : match.replace(/[^\n]/g, " ")),
  );
}

const importPattern =
  /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

/** The specifiers a file imports or re-exports, with the line each is on. */
export function importsOf(text) {
  const clean = stripComments(text);
  const found = [];
  for (const match of clean.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2];
    const offset = match.index + match[0].indexOf(specifier);
    const line = clean.slice(0, offset).split("\n").length;
    found.push({ specifier, line });
  }
  return found;
}

function listTs(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listTs(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The .ts file a relative specifier names, or undefined when it is not one of ours. */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, ".ts"),
    base.replace(/\.mjs$/, ".mts"),
    base,
    `${base}.ts`,
    join(base, "index.ts"),
  ];
  return candidates.find((path) => path.endsWith(".ts") && existsSync(path) && statSync(path).isFile());
}

/** The top folder of `file` under `src`, or "" for a file at the top. */
function folderOf(src, file) {
  const parts = relative(src, file).split(sep);
  return parts.length > 1 ? parts[0] : "";
}

/** Every violation in the tree under `src` (packages/core/src by default). */
export function checkLayers(src = join(root, "packages/core/src")) {
  const files = listTs(src).sort();
  const graph = new Map();
  const problems = [];
  for (const file of files) {
    const from = folderOf(src, file);
    const edges = [];
    for (const { specifier, line } of importsOf(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const target = resolveRelative(file, specifier);
      if (!target?.startsWith(src + sep)) continue;
      edges.push(target);
      const to = folderOf(src, target);
      const where = `${relative(root, file)}:${line}`;
      if (from && from !== "agent" && to === "agent") {
        problems.push(`${where}: ${from}/ imports agent/ ("${specifier}"): a capability never imports agent`);
      }
      if (standAlone.includes(from) && above.includes(to)) {
        problems.push(`${where}: ${from}/ imports ${to}/ ("${specifier}"): ${from} stands alone`);
      }
    }
    graph.set(file, [...new Set(edges)]);
  }
  for (const cycle of findCycles(graph)) {
    problems.push(`import cycle: ${cycle.map((file) => relative(root, file)).join(" -> ")}`);
  }
  return problems;
}

/** One cycle per back edge met in a depth-first walk, each as the files round it. */
function findCycles(graph) {
  const state = new Map(); // 1: on the stack, 2: done
  const stack = [];
  const cycles = [];
  const visit = (start) => {
    // Iterative, so a deep chain of imports cannot overflow the call stack.
    const frames = [{ file: start, next: 0 }];
    state.set(start, 1);
    stack.push(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const edges = graph.get(frame.file) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++];
        const seen = state.get(target);
        if (seen === 1) cycles.push([...stack.slice(stack.indexOf(target)), target]);
        else if (seen === undefined) {
          state.set(target, 1);
          stack.push(target);
          frames.push({ file: target, next: 0 });
        }
      } else {
        state.set(frame.file, 2);
        stack.pop();
        frames.pop();
      }
    }
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const src = process.argv[2] ? resolve(process.argv[2]) : undefined;
  const problems = checkLayers(src);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error(`check-layers: ${problems.length} problem(s); see docs/ARCHITECTURE.md for the layering.`);
    process.exit(1);
  }
  console.log("check-layers: packages/core/src keeps its layering.");
}
