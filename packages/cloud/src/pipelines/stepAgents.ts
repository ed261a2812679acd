import { basename } from "node:path";
import { type AgentDefinition, builtinAgents, loadAgentDefinitions } from "@lathe/core";
import { type AgentSpec, agentSpecSchema } from "./pipelineSpec.js";
import { roleAgents } from "./roleAgents.js";

/** The agents a pipeline file's steps may name. */
export interface StepAgents {
  /** By name: the project's agents first, then the role agents, then core's built-ins. */
  byName: ReadonlyMap<string, AgentSpec>;
  /** Why a project agent file was left out, by the name of its file without `.md`. */
  problems: ReadonlyMap<string, string>;
}

/**
 * The agents steps resolve to. `projectAgents: false` (an untrusted folder) does not read
 * `.lathe/agents` at all.
 */
export async function loadStepAgents(
  projectRoot: string,
  options: { projectAgents: boolean },
): Promise<StepAgents> {
  const byName = new Map<string, AgentSpec>();
  const problems = new Map<string, string>();
  for (const agent of builtinAgents) byName.set(agent.name, specOf(agent));
  for (const agent of roleAgents) byName.set(agent.name, agent);
  if (!options.projectAgents) return { byName, problems };
  const loaded = await loadAgentDefinitions(projectRoot, { projectAgents: true });
  for (const error of loaded.errors) problems.set(fileStem(error.file), `${error.file}: ${error.message}`);
  for (const agent of loaded.agents) {
    if (agent.source === "builtin") continue;
    const spec = agentSpecSchema.safeParse(specOf(agent));
    if (spec.success) {
      byName.set(agent.name, spec.data);
      continue;
    }
    const issue = spec.error.issues[0];
    problems.set(fileStem(agent.source), `${agent.source}: ${issue?.path.join(".")} ${issue?.message}`);
  }
  return { byName, problems };
}

/** A step keeps what running the agent needs; its description only helps a model choose it. */
function specOf(agent: AgentDefinition): AgentSpec {
  return {
    name: agent.name,
    instructions: agent.instructions,
    readonly: agent.readonly,
    ...(agent.model === undefined ? {} : { model: agent.model }),
    ...(agent.tools === undefined ? {} : { tools: agent.tools }),
    source: agent.source,
  };
}

function fileStem(file: string): string {
  return basename(file).replace(/\.md$/, "");
}
