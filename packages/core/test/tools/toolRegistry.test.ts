import { describe, expect, it } from "vitest";
import { builtinTools } from "../../src/tools/builtin/index.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";

const registry = () => new ToolRegistry(builtinTools());

describe("ToolRegistry", () => {
  it("lists and gets the built-in tools", () => {
    const tools = registry();
    expect(tools.list().map((tool) => tool.name)).toEqual([
      "read_file",
      "list_directory",
      "glob_search",
      "search_files",
      "codebase_search",
      "read_lints",
      "edit_file",
      "multi_edit",
      "apply_patch",
      "write_file",
      "delete_file",
      "run_terminal_cmd",
      "terminal_output",
      "terminal_kill",
      "fetch_rules",
      "todo_write",
      "ask_user",
      "update_memory",
      "task",
    ]);
    expect(tools.get("read_file")?.kind).toBe("read");
    expect(tools.get("nope")).toBeUndefined();
  });

  it("refuses two tools of one name", () => {
    const tools = registry();
    const readFile = tools.get("read_file");
    if (readFile === undefined) throw new Error("read_file missing");
    expect(() => tools.register(readFile)).toThrow(/already registered/);
  });

  it("suggests close names", () => {
    const tools = registry();
    expect(tools.suggest("reed_file")).toEqual(["read_file"]);
    expect(tools.suggest("ReadFile")).toEqual(["read_file"]);
    expect(tools.suggest("run_terminal")).toEqual(["run_terminal_cmd"]);
    expect(tools.suggest("file")).toEqual(["edit_file", "read_file", "write_file"]);
    expect(tools.suggest("zzzzzz")).toEqual([]);
  });

  it("answers an unknown tool with E_TOOL_NOT_FOUND and did-you-mean", () => {
    const result = registry().validate("reed_file", '{"path":"a"}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("E_TOOL_NOT_FOUND");
    expect(result.error.message).toBe('Unknown tool "reed_file". Did you mean: read_file?');
    expect(result.suggestions).toEqual(["read_file"]);
  });

  it("lists the available tools when nothing is close", () => {
    const result = registry().validate("browse", "{}");
    expect(result.ok || result.error.message).toBe(
      'Unknown tool "browse". Available tools: read_file, list_directory, glob_search, search_files, codebase_search, read_lints, edit_file, multi_edit, apply_patch, write_file, delete_file, run_terminal_cmd, terminal_output, terminal_kill, fetch_rules, todo_write, ask_user, update_memory, task.',
    );
  });

  it("treats tools outside the filter as unknown", () => {
    const result = registry().validate(
      "write_file",
      '{"path":"a","contents":""}',
      (tool) => tool.kind === "read",
    );
    expect(result.ok || result.error.code).toBe("E_TOOL_NOT_FOUND");
  });

  it("answers invalid JSON with E_INVALID_ARGS, the parse error and the schema", () => {
    const result = registry().validate("read_file", '{"path": "a.txt",');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("E_INVALID_ARGS");
    expect(result.error.message).toMatch(/^The arguments for read_file are not valid JSON \(.+\)\./);
    expect(result.error.message).toContain('Expected JSON matching this schema: {"type":"object"');
  });

  it("answers a schema failure with each issue's path and message, and the schema", () => {
    const result = registry().validate("read_file", '{"offset":"ten","limit":0}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("E_INVALID_ARGS");
    const [heading, ...rest] = result.error.message.split("\n");
    expect(heading).toBe("Invalid arguments for read_file:");
    expect(rest.slice(0, 3)).toEqual([
      "  - path: Invalid input: expected string, received undefined",
      "  - offset: Invalid input: expected number, received string",
      "  - limit: Too small: expected number to be >=1",
    ]);
    expect(rest[3]).toMatch(/^Expected schema: \{"type":"object","properties":\{"path":/);
  });

  it("accepts valid arguments and an empty argument string for an all-optional schema", () => {
    const result = registry().validate("read_file", '{"path":"a.txt","offset":3}');
    expect(result).toMatchObject({ ok: true, args: { path: "a.txt", offset: 3 } });
    const empty = registry().validate("read_file", "");
    expect(empty.ok || empty.error.message).toContain("path: Invalid input");
  });

  it("gives plain JSON Schema specs without $schema", () => {
    const specs = registry().specs((tool) => tool.kind === "read");
    expect(specs.map((spec) => spec.name)).toEqual([
      "read_file",
      "list_directory",
      "read_lints",
      "terminal_output",
      "fetch_rules",
    ]);
    const readFile = specs[0];
    expect(readFile?.description).toContain("line number");
    expect(readFile?.inputSchema).not.toHaveProperty("$schema");
    expect(readFile?.inputSchema).toMatchObject({
      type: "object",
      required: ["path"],
      properties: { path: { type: "string" }, offset: { type: "integer", minimum: 1 } },
    });
    const shell = registry().specs((tool) => tool.name === "run_terminal_cmd")[0];
    expect(shell?.inputSchema).toMatchObject({
      required: ["command"],
      properties: { timeout_ms: { maximum: 600_000 } },
    });
  });
});
