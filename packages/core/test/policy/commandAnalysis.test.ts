import { readFileSync } from "node:fs";
import { riskSchema } from "@lathe/protocol";
import { beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { analyzeCommand, loadCommandParser } from "../../src/policy/commandAnalysis/index.js";

const corpusSchema = z.array(
  z.strictObject({
    category: z.string(),
    command: z.string(),
    expect: z.strictObject({
      risk: riskSchema,
      blocked: z.literal(true).optional(),
      needsNetwork: z.literal(true).optional(),
    }),
    note: z.string().optional(),
  }),
);

const corpus = corpusSchema.parse(
  JSON.parse(readFileSync(new URL("./corpora/commands.json", import.meta.url), "utf8")),
);

beforeAll(async () => {
  await loadCommandParser();
});

describe("command corpus", () => {
  test("is large and covers every category", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(corpus.filter((c) => c.category === "readOnly").length).toBeGreaterThanOrEqual(40);
    expect(new Set(corpus.map((c) => c.command)).size).toBe(corpus.length);
  });

  test.each(
    corpus.map((c) => [c.category, c.command, c] as const),
  )("%s: %s", async (_category, command, c) => {
    const analysis = await analyzeCommand(command);
    expect({
      risk: analysis.risk,
      blocked: analysis.block !== undefined,
      needsNetwork: analysis.needsNetwork === true,
    }).toEqual({
      risk: c.expect.risk,
      blocked: c.expect.blocked === true,
      needsNetwork: c.expect.needsNetwork === true,
    });
    if (analysis.block) {
      expect(analysis.block.code).toBe("E_COMMAND_BLOCKED");
      expect(analysis.risk).toBe("critical");
    }
  });
});
