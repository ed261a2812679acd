import { loadPipeline, type PipelineSpec } from "@lathe/cloud";
import { parseModelId, projectTrusted, type WorkspaceTrust } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { projectTrustFor } from "../trustServices.js";
import { loadUserSettings } from "../userSettings.js";

/**
 * The pipeline a cloud task runs, resolved here on the submitting device and stored with the
 * task. The project's pipelines and agents are read only when the folder is trusted, as a
 * session reads its agents: a pipeline file chooses a verify command and its agents' instructions.
 */
export async function choosePipeline(request: {
  projectRoot: string;
  latheHome: string;
  name: string;
  verify?: string;
}): Promise<{ ok: true; pipeline: PipelineSpec; notices: string[] } | { ok: false; error: LatheErrorInfo }> {
  const checked = projectTrustFor(request.latheHome, request.projectRoot);
  if (!checked.ok) return { ok: false, error: errorInfo("E_INVALID_ARGS", checked.error.message) };
  const trust = checked.value;
  const projectFiles = projectTrusted(trust);
  const loaded = await loadPipeline(request.projectRoot, request.name, {
    projectFiles,
    verify: request.verify,
  });
  if (!loaded.ok) return loaded;
  const models = agentModelsOf(request.latheHome);
  if (!models.ok) return models;
  return {
    ok: true,
    pipeline: withAgentModels(loaded.pipeline, models.value),
    notices: projectFiles ? [] : unreadFiles(trust),
  };
}

/**
 * The pipeline a submitted task runs, if any: the one named, else `default` when best-of-N or a
 * check asks for one (both need a coder and a review); none for a plain task.
 */
export async function pipelineForTask(request: {
  projectRoot: string;
  latheHome: string;
  pipeline?: string;
  attempts: number;
  verify?: string;
}): Promise<
  { ok: true; pipeline: PipelineSpec | undefined; notices: string[] } | { ok: false; error: LatheErrorInfo }
> {
  const wanted = request.pipeline !== undefined || request.attempts > 1 || request.verify !== undefined;
  if (!wanted) return { ok: true, pipeline: undefined, notices: [] };
  return choosePipeline({
    projectRoot: request.projectRoot,
    latheHome: request.latheHome,
    name: request.pipeline ?? "default",
    verify: request.verify,
  });
}

/** The user's `agentModels` setting, each a model id. */
function agentModelsOf(
  latheHome: string,
): { ok: true; value: Record<string, string> } | { ok: false; error: LatheErrorInfo } {
  const loaded = loadUserSettings(latheHome);
  if (!loaded.ok) return { ok: false, error: errorInfo("E_INVALID_ARGS", loaded.message) };
  const models = loaded.settings.agentModels ?? {};
  for (const [agent, model] of Object.entries(models)) {
    const parsed = parseModelId(model);
    if (!parsed.ok)
      return {
        ok: false,
        error: errorInfo("E_INVALID_ARGS", `agentModels.${agent} in settings.json: ${parsed.error.message}`),
      };
  }
  return { ok: true, value: models };
}

/** The user's choice of model for an agent comes before the agent file's: the user pays for it. */
function withAgentModels(pipeline: PipelineSpec, models: Record<string, string>): PipelineSpec {
  return {
    ...pipeline,
    steps: pipeline.steps.map((step) => {
      const model = models[step.agent.name] ?? step.agent.model;
      return model === undefined ? step : { ...step, agent: { ...step.agent, model } };
    }),
  };
}

/** The pipeline and agent files an untrusted folder holds, which were left unread. */
function unreadFiles(trust: WorkspaceTrust): string[] {
  const unread = trust.files.filter((file) => file.kind === "pipeline" || file.kind === "agent");
  if (unread.length === 0) return [];
  const why =
    trust.status === "changed"
      ? `its files changed since ${trust.projectRoot} was trusted`
      : `${trust.projectRoot} is not trusted`;
  return [
    `${unread.map((file) => file.path).join(", ")} not read: ${why}. Read them, then \`lathe trust\` would let pipelines use them.`,
  ];
}
