import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { closestNames } from "./editDistance.js";
import { inputSchemaFor } from "./inputSchemas.js";
import type { AnyTool } from "./tool.js";

/** What a provider needs to offer a tool to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** Plain JSON Schema of the arguments, without `$schema`. */
  inputSchema: Record<string, unknown>;
}

export type ToolFilter = (tool: AnyTool) => boolean;

export type ArgsValidation =
  | { ok: true; tool: AnyTool; args: unknown }
  | { ok: false; error: LatheErrorInfo; suggestions: string[] };

const maxSuggestions = 3;

/**
 * The tools an engine offers, by name, with argument validation for calls the model makes. Tools
 * may arrive and leave while a session runs (MCP servers that start late or change their list);
 * `revision` tells a run that what it offers must be read again.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private changes = 0;

  constructor(tools: Iterable<AnyTool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) throw new Error(`A tool named ${tool.name} is already registered.`);
    this.tools.set(tool.name, tool);
    this.changes++;
  }

  /** Removes a tool; false when there was none of that name. */
  unregister(name: string): boolean {
    if (!this.tools.delete(name)) return false;
    this.changes++;
    return true;
  }

  /** Grows with every tool registered or removed. */
  get revision(): number {
    return this.changes;
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  list(filter?: ToolFilter): AnyTool[] {
    const all = [...this.tools.values()];
    return filter === undefined ? all : all.filter(filter);
  }

  /** Up to three names the model may have meant: close in spelling, or containing one another. */
  suggest(name: string, filter?: ToolFilter): string[] {
    const names = this.list(filter).map((tool) => tool.name);
    return closestNames(name, names, maxSuggestions, normalizeName);
  }

  specs(filter?: ToolFilter): ToolSpec[] {
    return this.list(filter).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: this.inputSchemaOf(tool),
    }));
  }

  /**
   * Turns a model's raw tool call into validated arguments, or into an error written for the
   * model: what was wrong and the schema to follow.
   */
  validate(name: string, rawArguments: string, filter?: ToolFilter): ArgsValidation {
    const tool = this.tools.get(name);
    if (tool === undefined || (filter !== undefined && !filter(tool))) {
      const suggestions = this.suggest(name, filter);
      const offered = this.list(filter).map((candidate) => candidate.name);
      const advice =
        suggestions.length > 0
          ? `Did you mean: ${suggestions.join(", ")}?`
          : `Available tools: ${offered.join(", ") || "none"}.`;
      return {
        ok: false,
        error: errorInfo("E_TOOL_NOT_FOUND", `Unknown tool "${name}". ${advice}`),
        suggestions,
      };
    }

    // Written out only for an error: most calls are valid.
    const schemaText = () => JSON.stringify(this.inputSchemaOf(tool));
    let parsed: unknown;
    try {
      // Some providers send an empty string for a call without arguments.
      parsed = rawArguments.trim() === "" ? {} : JSON.parse(rawArguments);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const message = `The arguments for ${name} are not valid JSON (${reason}).\nExpected JSON matching this schema: ${schemaText()}`;
      return { ok: false, error: errorInfo("E_INVALID_ARGS", message), suggestions: [] };
    }

    const result = tool.schema.safeParse(parsed);
    if (!result.success) {
      const issues = result.error.issues.map(
        (issue) => `  - ${formatIssuePath(issue.path)}: ${issue.message}`,
      );
      const message = `Invalid arguments for ${name}:\n${issues.join("\n")}\nExpected schema: ${schemaText()}`;
      return { ok: false, error: errorInfo("E_INVALID_ARGS", message), suggestions: [] };
    }
    return { ok: true, tool, args: result.data };
  }

  private inputSchemaOf(tool: AnyTool): Record<string, unknown> {
    return tool.inputJsonSchema ?? inputSchemaFor(tool.name, tool.schema);
  }
}

function formatIssuePath(issuePath: readonly PropertyKey[]): string {
  if (issuePath.length === 0) return "(arguments)";
  return issuePath
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index > 0 ? "." : ""}${String(key)}`))
    .join("");
}

/** Case, dashes and underscores are the usual slips (`ReadFile`, `read-file`). */
function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}
