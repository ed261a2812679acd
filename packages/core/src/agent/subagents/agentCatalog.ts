import { type AgentDefinition, builtinAgents, loadAgentDefinitions } from "./agentDefinitions.js";

/** The agents `task` can start: the built-ins until `.lathe/agents/*.md` is read, at the first message. */
export class AgentCatalog {
  definitions: readonly AgentDefinition[] = builtinAgents;
  private loaded = false;

  constructor(
    private readonly projectRoot: string,
    /** False in an untrusted folder: its agent files are not read. */
    private readonly projectAgents: boolean,
  ) {}

  /** Reads the project's agents once; the files it skipped, with why. */
  async load(): Promise<{ file: string; message: string }[]> {
    if (this.loaded) return [];
    this.loaded = true;
    const loaded = await loadAgentDefinitions(this.projectRoot, { projectAgents: this.projectAgents });
    this.definitions = loaded.agents;
    return loaded.errors;
  }
}
