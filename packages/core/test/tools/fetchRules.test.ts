import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRules } from "../../src/context/rules/index.js";
import { fetchRulesTool } from "../../src/tools/builtin/fetchRules/fetchRules.js";
import type { ToolContext, ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => {
  bed.cleanup();
});

const registry = new ToolRegistry([fetchRulesTool]);

/** Validates like the scheduler does, then runs the tool. */
async function call(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
  const validated = registry.validate("fetch_rules", JSON.stringify(args));
  if (!validated.ok) throw new Error(validated.error.message);
  return runTool(validated.tool, validated.args, context);
}

function writeRule(name: string, text: string): void {
  const file = path.join(bed.projectRoot, ".lathe/rules", `${name}.md`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function contextWithRules(): Promise<ToolContext> {
  writeRule("testing", "---\ndescription: How tests are written\n---\nUse Vitest.\nNo mocks.");
  writeRule("api", "---\ndescription: API conventions\n---\nREST, JSON bodies.");
  writeRule("release", "Manual: tag, then publish.");
  const { rules } = await loadRules({ projectRoot: bed.projectRoot });
  return { ...bed.context(), rules };
}

describe("fetch_rules", () => {
  it("returns each rule in a block, and keeps it attached", async () => {
    const context = await contextWithRules();
    const result = await call({ names: ["testing", "api"] }, context);
    expect(outputOf(result)).toBe(
      '<rule name="testing">\nUse Vitest.\nNo mocks.\n</rule>\n\n<rule name="api">\nREST, JSON bodies.\n</rule>',
    );
    expect(result.ok && result.metadata).toEqual({ fetched: ["testing", "api"], missing: [] });
    expect(context.rules?.requestable()).toEqual([
      { name: "api", description: "API conventions" },
      { name: "testing", description: "How tests are written" },
    ]);
  });

  it("names the rules it could not find and lists those it can", async () => {
    const context = await contextWithRules();
    expect(outputOf(await call({ names: ["testing", "deploy"] }, context))).toBe(
      [
        '<rule name="testing">\nUse Vitest.\nNo mocks.\n</rule>',
        [
          'No rule can be fetched under the name "deploy". Rules you can fetch:',
          "- api: API conventions",
          "- testing: How tests are written",
        ].join("\n"),
      ].join("\n\n"),
    );
    // Manual rules are for the user to mention, not for the model to fetch.
    expect(outputOf(await call({ names: ["release", "deploy"] }, context))).toBe(
      [
        'No rule can be fetched under the names "release", "deploy". Rules you can fetch:',
        "- api: API conventions",
        "- testing: How tests are written",
      ].join("\n"),
    );
  });

  it("says so when the project has no rules", async () => {
    expect(outputOf(await call({ names: ["testing"] }, bed.context()))).toBe(
      "This project has no rules to fetch.",
    );
    const { rules } = await loadRules({ projectRoot: bed.projectRoot });
    expect(outputOf(await call({ names: ["testing"] }, { ...bed.context(), rules }))).toBe(
      'No rule can be fetched under the name "testing". This project has no rules to fetch by name.',
    );
  });

  it("takes 1 to 10 names", () => {
    expect(registry.validate("fetch_rules", JSON.stringify({ names: [] })).ok).toBe(false);
    const eleven = Array.from({ length: 11 }, (_, index) => `rule${index}`);
    expect(registry.validate("fetch_rules", JSON.stringify({ names: eleven })).ok).toBe(false);
    expect(registry.validate("fetch_rules", JSON.stringify({ names: [""] })).ok).toBe(false);
    expect(fetchRulesTool.kind).toBe("read");
    expect(fetchRulesTool.risk({ names: ["a"] }, { projectRoot: bed.projectRoot })).toBe("safe");
  });
});
