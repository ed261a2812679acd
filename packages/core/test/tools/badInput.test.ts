import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { errorCatalog } from "@lathe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinTools } from "../../src/tools/builtin/index.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

const registry = new ToolRegistry(builtinTools());
const tenMegabytes = "x".repeat(10 * 1024 * 1024);

let bed: ToolTestBed;
beforeAll(() => {
  bed = createToolTestBed();
  mkdirSync(path.join(bed.projectRoot, "src"));
  writeFileSync(path.join(bed.projectRoot, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(path.join(bed.projectRoot, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]));
});
afterAll(() => bed.cleanup());

/** Every file and folder of the project with a hash of its bytes: "changes nothing" is checked on this. */
function snapshot(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full);
      if (statSync(full).isDirectory()) {
        entries[relative] = "dir";
        walk(full);
      } else {
        entries[relative] = createHash("sha256").update(readFileSync(full)).digest("hex");
      }
    }
  };
  walk(root);
  return entries;
}

/** Validates and runs a call the way the scheduler does. */
async function invoke(name: string, args: unknown) {
  const validated = registry.validate(name, JSON.stringify(args));
  if (!validated.ok) return { ok: false as const, error: validated.error };
  return runTool(validated.tool, validated.args, bed.context());
}

const pathTools = ["read_file", "write_file", "edit_file", "multi_edit", "delete_file", "list_directory"];

/** Tools whose every argument is optional take `{}`; they get wrong-typed arguments instead. */
function hasRequired(name: string): boolean {
  return !registry.validate(name, "{}").ok;
}

/** Bad calls per tool: missing, wrong-typed and absurd arguments. */
const badCalls: [string, unknown][] = [
  ...builtinTools().map((tool): [string, unknown] => [
    tool.name,
    hasRequired(tool.name) ? {} : { depth: "deep", paths: 7 },
  ]),
  ...builtinTools().map((tool): [string, unknown] => [tool.name, "not an object"]),
  ...builtinTools().map((tool): [string, unknown] => [tool.name, [1, 2, 3]]),
  ...pathTools.map((name): [string, unknown] => [
    name,
    { path: "src/a\u0000.ts", contents: "", old_string: "a", new_string: "b", edits: [] },
  ]),
  ...pathTools.map((name): [string, unknown] => [
    name,
    { path: 42, contents: 1, old_string: null, new_string: [], edits: "x" },
  ]),
  ...pathTools.map((name): [string, unknown] => [
    name,
    {
      path: tenMegabytes,
      contents: "",
      old_string: "a",
      new_string: "b",
      edits: [{ old_string: "a", new_string: "b" }],
    },
  ]),
  ["read_file", { path: "src/a.ts", offset: -5 }],
  ["read_file", { path: "src/a.ts", limit: 0 }],
  ["read_file", { path: "src/a.ts", offset: 1.5 }],
  ["read_file", { path: "src" }],
  ["read_file", { path: "logo.png" }],
  ["read_file", { path: "../outside.txt" }],
  ["read_file", { path: "/etc/passwd" }],
  ["write_file", { path: "src", contents: "x" }],
  ["write_file", { path: "src/a.ts", contents: "never read, so refused" }],
  ["write_file", { path: "/tmp/lathe-bad-input-outside.txt", contents: "x" }],
  ["edit_file", { path: "src/a.ts", old_string: "a", new_string: "a" }],
  ["edit_file", { path: "src/a.ts", old_string: tenMegabytes, new_string: "b" }],
  ["edit_file", { path: "logo.png", old_string: "PNG", new_string: "JPG" }],
  ["edit_file", { path: "src", old_string: "a", new_string: "b" }],
  ["multi_edit", { path: "src/a.ts", edits: [] }],
  [
    "multi_edit",
    { path: "src/a.ts", edits: Array.from({ length: 51 }, () => ({ old_string: "a", new_string: "b" })) },
  ],
  ["apply_patch", { patch: "" }],
  ["apply_patch", { patch: "*** Begin Patch\n*** Update File: ../../etc/hosts\n@@\n-a\n+b\n*** End Patch" }],
  ["apply_patch", { patch: tenMegabytes }],
  ["apply_patch", { patch: "*** Begin Patch\n*** Add File: src/a.ts\n+dup\n*** End Patch" }],
  ["delete_file", { path: "src" }],
  ["delete_file", { path: "." }],
  ["delete_file", { path: "missing.txt" }],
  ["list_directory", { path: "src", depth: -1 }],
  ["list_directory", { path: "src/a.ts" }],
  ["glob_search", { pattern: "../*" }],
  ["glob_search", { pattern: "" }],
  ["glob_search", { pattern: "**/*.ts", path: "/etc" }],
  ["search_files", { pattern: "(" }],
  ["search_files", { pattern: "a", path: "../" }],
  ["search_files", { pattern: "a", context_lines: -1 }],
  ["search_files", { pattern: tenMegabytes }],
  ["read_lints", { paths: ["../../etc"] }],
  ["read_lints", { paths: "src" }],
  ["run_terminal_cmd", { command: "" }],
  ["run_terminal_cmd", { command: "true", timeout_ms: -1 }],
  ["run_terminal_cmd", { command: "true", timeout_ms: 10_000_000 }],
  ["run_terminal_cmd", { command: "true", working_directory: "/" }],
  ["run_terminal_cmd", { command: "true", working_directory: "src\u0000" }],
  ["terminal_output", { id: "t999" }],
  ["terminal_kill", { id: "nope" }],
];

describe("bad input gets a clear coded error and changes nothing", () => {
  it.each(
    badCalls.map(
      ([name, args], index) =>
        [`${index}: ${name} ${JSON.stringify(args).slice(0, 60)}`, name, args] as const,
    ),
  )(
    "%s",
    async (_label, name, args) => {
      const before = snapshot(bed.projectRoot);
      const result = await invoke(name, args);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(Object.keys(errorCatalog)).toContain(result.error.code);
      expect(result.error.message.length).toBeGreaterThan(10);
      expect(Buffer.byteLength(result.error.message)).toBeLessThanOrEqual(4096);
      expect(snapshot(bed.projectRoot)).toEqual(before);
    },
    30_000,
  );
});
