import { describe, expect, it } from "vitest";
import { callSubjects } from "../../src/policy/callSubjects.js";

describe("callSubjects", () => {
  it.each([
    ["read_file", { path: "src/a.ts", offset: 3 }, { paths: ["src/a.ts"] }],
    [
      "mcp__fs__read",
      { file: "a", filename: "b", file_path: "c", target_file: "d" },
      { paths: ["a", "b", "c", "d"] },
    ],
    ["read_lints", { paths: ["a.ts", "b.ts", 3, ""] }, { paths: ["a.ts", "b.ts"] }],
    ["codebase_search", { query: "q", target_directories: ["src", "../x"] }, { paths: ["src", "../x"] }],
    [
      "run_terminal_cmd",
      { command: "npm test", working_directory: "packages/core" },
      { paths: ["packages/core"], command: "npm test" },
    ],
    ["web_fetch", { url: "https://example.com" }, { paths: [], url: "https://example.com" }],
    ["list_directory", {}, { paths: [] }],
    ["terminal_output", { id: "t1" }, { paths: [] }],
    ["search_files", { pattern: "../../etc/*", path: "src" }, { paths: ["src"] }],
    ["glob_search", { pattern: "src/lib/**/*.ts" }, { paths: ["src/lib"] }],
    ["glob_search", { pattern: "**/*.ts" }, { paths: ["."] }],
    [
      "glob_search",
      { pattern: "lib/*.ts", path: "packages/core" },
      { paths: ["packages/core", "packages/core/lib"] },
    ],
    ["glob_search", { pattern: "/etc/*.conf" }, { paths: ["/etc"] }],
    ["glob_search", { pattern: ".env" }, { paths: [".env"] }],
    ["read_file", null, { paths: [] }],
    ["read_file", "src/a.ts", { paths: [] }],
    ["read_file", { path: 42, command: ["x"] }, { paths: [] }],
  ] as const)("%s %j → %j", (tool, args, expected) => {
    expect(callSubjects(tool, args)).toEqual(expected);
  });

  it("lists every file an apply_patch touches, moves included", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: src/new.ts",
      "+*** Update File: not-a-header.ts",
      "*** Update File: src/old.ts",
      "*** Move to: src/renamed.ts",
      "@@",
      "-a",
      "+b",
      "*** Delete File: .env",
      "*** End Patch",
    ].join("\n");
    expect(callSubjects("apply_patch", { patch })).toEqual({
      paths: ["src/new.ts", "src/old.ts", "src/renamed.ts", ".env"],
    });
  });

  it("still reports the headers of a patch the tool cannot parse", () => {
    const patch = "*** Update File: .env\n*** Add File: x.ts\nno end marker";
    expect(callSubjects("apply_patch", { patch }).paths).toEqual([".env", "x.ts"]);
  });
});
