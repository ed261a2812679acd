import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseFrontMatter } from "../../context/rules/frontMatter.js";

/** An agent the model can delegate to with `task` (SPEC §3, §4). */
export interface AgentDefinition {
  name: string;
  description: string;
  /** Only read and search tools: it can look, never change. */
  readonly: boolean;
  /** Tool names it may use; absent means every tool its kind allows. */
  tools?: string[];
  /** `provider:model` when it should not use the session's model. */
  model?: string;
  instructions: string;
  source: "builtin" | string;
}

export const builtinAgents: readonly AgentDefinition[] = [
  {
    name: "explore",
    description:
      "Read-only exploration: finds where things are and how they work, and reports back with file paths and line numbers. Use it for searches that would crowd your own context.",
    readonly: true,
    instructions:
      "You are a read-only explorer. Find what the task asks for using the read and search tools, then answer with a concise report: the relevant files with line numbers, what each does, and anything surprising. Quote only the few lines that matter. You cannot change anything.",
    source: "builtin",
  },
  {
    name: "general",
    description:
      "A general agent with the session's tools for a self-contained subtask (it may edit files and run commands, under the same approvals).",
    readonly: false,
    instructions:
      "You are a sub-agent working on one self-contained subtask for another agent. Do the subtask completely, verify it, and end with a short report of what you changed and found; the other agent sees only that report.",
    source: "builtin",
  },
];

const namePattern = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * Built-ins plus `.lathe/agents/*.md` (front matter: name, description, tools, model, readonly;
 * body = instructions). A project agent with a built-in's name replaces it; a bad file is
 * reported and skipped. `projectAgents: false` (an untrusted folder) leaves the built-ins alone.
 */
export async function loadAgentDefinitions(
  projectRoot: string,
  options: { projectAgents?: boolean } = {},
): Promise<{ agents: AgentDefinition[]; errors: { file: string; message: string }[] }> {
  const dir = join(projectRoot, ".lathe", "agents");
  const names = options.projectAgents === false ? [] : await readdir(dir).catch(() => [] as string[]);
  const agents = new Map(builtinAgents.map((agent) => [agent.name, agent]));
  const errors: { file: string; message: string }[] = [];
  for (const file of names.filter((name) => name.endsWith(".md")).sort()) {
    const source = join(".lathe", "agents", file);
    const parsed = parseFrontMatter(await readFile(join(dir, file), "utf8").catch(() => ""));
    if (!parsed.ok) {
      errors.push({ file: source, message: parsed.message });
      continue;
    }
    const data = parsed.data;
    const name = typeof data.name === "string" ? data.name : file.replace(/\.md$/, "");
    if (!namePattern.test(name)) {
      errors.push({
        file: source,
        message: `agent name "${name}" must be lowercase letters, digits and dashes`,
      });
      continue;
    }
    if (typeof data.description !== "string" || data.description.trim() === "") {
      errors.push({ file: source, message: "an agent needs a description (the model chooses agents by it)" });
      continue;
    }
    const tools = Array.isArray(data.tools)
      ? data.tools
      : typeof data.tools === "string"
        ? data.tools.split(",").map((tool) => tool.trim())
        : undefined;
    agents.set(name, {
      name,
      description: data.description.trim(),
      readonly: data.readonly === true,
      tools: tools?.filter(Boolean),
      model: typeof data.model === "string" ? data.model : undefined,
      instructions: parsed.body.trim(),
      source,
    });
  }
  return { agents: [...agents.values()], errors };
}
