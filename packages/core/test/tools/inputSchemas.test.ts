import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";

// The built engine, as `lathe` runs it: only dist/ holds the schemas the build derived.
const dist = new URL("../../dist/", import.meta.url);
const built = (await import(new URL("index.js", dist).href)) as typeof import("../../src/index.js");
const schemas = (await import(
  new URL("tools/inputSchemas.js", dist).href
)) as typeof import("../../src/tools/inputSchemas.js");
const shipped = JSON.parse(readFileSync(fileURLToPath(new URL("tools/toolInputSchemas.json", dist)), "utf8"));

describe("the tool schemas the build derives", () => {
  it("cover every built-in tool and agree with deriving them now", () => {
    const tools = built.builtinTools();
    expect(Object.keys(shipped)).toEqual(expect.arrayContaining(tools.map((tool) => tool.name)));
    for (const tool of tools) {
      expect(schemas.inputSchemaFor(tool.name, tool.schema), tool.name).toEqual(
        built.deriveInputSchema(tool.schema),
      );
    }
  });

  it("are the ones offered for every built-in tool, so offering one builds none of them", () => {
    const tools = [
      ...built.builtinTools(),
      built.createWebSearchTool(() => ({})),
      built.createWebFetchTool(() => ({})),
      built.createBrowserUseTool(() => ({}), new built.BrowserSessions()),
      built.createGenerateImageTool(() => undefined),
    ];
    expect(
      tools.filter((tool) => !built.isBuiltinToolSchema(tool.name, tool.schema)).map((tool) => tool.name),
    ).toEqual([]);
    expect(Object.keys(shipped).sort()).toEqual(tools.map((tool) => tool.name).sort());
  });

  it("are not used for a tool of another shape under a built-in's name", () => {
    const other = z.object({ query: z.string().describe("What to look for") });
    expect(schemas.inputSchemaFor("read_file", other)).toEqual({
      type: "object",
      properties: { query: { type: "string", description: "What to look for" } },
      required: ["query"],
    });
  });

  it("are used for a built-in tool's own schema, which offering the tool does not build", () => {
    let builds = 0;
    const own = schemas.builtinToolSchema("read_file", () => {
      builds += 1;
      return z.object({ path: z.string() });
    });
    expect(schemas.inputSchemaFor("read_file", own)).toEqual(shipped.read_file);
    expect(builds).toBe(0);
    expect(own.safeParse({ path: "a.ts" }).success).toBe(true);
    expect(own.safeParse({}).success).toBe(false);
    expect(builds).toBe(1);
  });

  it("are not used for a built-in's schema offered under another tool's name", () => {
    const own = schemas.builtinToolSchema("read_file", () => z.object({ path: z.string() }));
    expect(schemas.inputSchemaFor("write_file", own)).toEqual({
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
    });
  });
});
