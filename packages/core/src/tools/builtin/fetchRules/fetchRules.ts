import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import type { RuleCatalog } from "../../toolServices.js";

const fetchRulesSchema = builtinToolSchema("fetch_rules", () =>
  z.object({
    names: z.array(z.string().min(1)).min(1).max(10).describe("Rule names as listed."),
  }),
);

type FetchRulesArgs = z.infer<typeof fetchRulesSchema>;

export const fetchRulesTool = defineTool({
  name: "fetch_rules",
  description: toolPrompt(assetUrl("tools/builtin/fetchRules/fetchRules.md")),
  schema: fetchRulesSchema,
  kind: "read",
  risk: () => "safe",
  timeoutMs: 10_000,
  truncation: "head",
  execute: fetchRules,
});

async function fetchRules(args: FetchRulesArgs, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.rules === undefined) {
    return {
      ok: true,
      output: "This project has no rules to fetch.",
      metadata: { fetched: [], missing: [] },
    };
  }
  const { rules, missing } = ctx.rules.fetch(args.names);
  const blocks = rules.map(
    (rule) => `<rule name="${attribute(rule.name)}">\n${defused(rule.content)}\n</rule>`,
  );
  const parts = missing.length > 0 ? [...blocks, missingNote(missing, ctx.rules)] : blocks;
  const metadata = { fetched: rules.map((rule) => rule.name), missing };
  return { ok: true, output: parts.join("\n\n"), metadata };
}

/** Names what was not found and what could have been, so the next call can be right. */
function missingNote(missing: readonly string[], catalog: RuleCatalog): string {
  const names = missing.map((name) => `"${name}"`).join(", ");
  const headline = `No rule can be fetched under ${missing.length === 1 ? "the name" : "the names"} ${names}.`;
  const available = catalog.requestable();
  if (available.length === 0) return `${headline} This project has no rules to fetch by name.`;
  const list = available.map((rule) => `- ${rule.name}: ${rule.description}`);
  return [`${headline} Rules you can fetch:`, ...list].join("\n");
}

/** Rule text comes from project files: a closing tag inside it must not end the block early. */
function defused(content: string): string {
  return content.replace(/<\/(rule)/gi, "<\\/$1");
}

function attribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
