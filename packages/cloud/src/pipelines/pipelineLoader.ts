import { errorInfo } from "@lathe/protocol";
import { builtinPipelines } from "./builtinPipelines.js";
import {
  declaredPipelineName,
  maxVerifyChars,
  type PipelineParse,
  parsePipelineFile,
} from "./pipelineFiles.js";
import { pipelineFileNames, pipelinesFolder, readPipelineFiles } from "./pipelineFolder.js";
import type { PipelineSpec } from "./pipelineSpec.js";
import { loadStepAgents } from "./stepAgents.js";

export interface PipelineSources {
  /**
   * Whether `.lathe/pipelines` and `.lathe/agents` may be read: only in a trusted folder, since a
   * pipeline file chooses a verify command and the instructions its agents follow.
   */
  projectFiles: boolean;
}

/** A pipeline as `lathe cloud pipelines` and the faces list it. */
export interface PipelineListing {
  name: string;
  description: string;
  /** `builtin` or the project file. */
  source: string;
  /** The steps in order, an optional one followed by `?`. */
  steps: string[];
  /** Why the project file cannot be used; it is listed all the same, so its mistake is seen. */
  problem?: string;
}

/**
 * The pipeline called `name`: the project's file of that name when project files may be read,
 * else the built-in one. `verify`, when given, replaces the pipeline's own check.
 */
export async function loadPipeline(
  projectRoot: string,
  name: string,
  options: PipelineSources & { verify?: string },
): Promise<PipelineParse> {
  const found = options.projectFiles
    ? await projectPipeline(projectRoot, name)
    : await builtinPipeline(projectRoot, name);
  if (!found.ok || options.verify === undefined) return found;
  const verify = options.verify.trim();
  if (verify === "") return failure("the verify command is empty");
  if (verify.length > maxVerifyChars)
    return failure(`the verify command is ${verify.length} characters; at most ${maxVerifyChars}`);
  return { ok: true, pipeline: { ...found.pipeline, verify } };
}

/**
 * The built-in pipelines, then the project's when its files may be read. A project file replaces
 * the built-in of its name; a file with a mistake is listed with it.
 */
export async function listPipelines(
  projectRoot: string,
  sources: PipelineSources,
): Promise<PipelineListing[]> {
  const builtins = builtinPipelines.map(listingOf);
  if (!sources.projectFiles) return builtins;
  const folder = await readPipelineFiles(projectRoot);
  const agents = await loadStepAgents(projectRoot, { projectAgents: true });
  const fromProject: PipelineListing[] = [
    ...folder.unreadable.map((file) => ({
      name: file.name,
      description: "",
      source: file.source,
      steps: [],
      problem: file.message,
    })),
    ...folder.files.map((file) => {
      const parsed = parsePipelineFile(file, agents);
      if (parsed.ok) return listingOf(parsed.pipeline);
      const name = declaredPipelineName(file);
      return { name, description: "", source: file.source, steps: [], problem: parsed.error.message };
    }),
  ].sort((a, b) => (a.source < b.source ? -1 : 1));
  for (const listing of fromProject) {
    const sameName = fromProject.filter((other) => other.name === listing.name);
    if (sameName.length > 1) listing.problem = sameNameProblem(listing.name, sameName);
  }
  const projectNames = new Set(fromProject.map((listing) => listing.name));
  return [...builtins.filter((listing) => !projectNames.has(listing.name)), ...fromProject];
}

async function projectPipeline(projectRoot: string, name: string): Promise<PipelineParse> {
  const folder = await readPipelineFiles(projectRoot);
  const unreadable = folder.unreadable.filter((file) => file.name === name);
  const named = folder.files.filter((file) => declaredPipelineName(file) === name);
  if (unreadable.length + named.length > 1) return failure(sameNameProblem(name, [...unreadable, ...named]));
  const [broken] = unreadable;
  if (broken !== undefined) return failure(broken.message);
  const [file] = named;
  if (file !== undefined)
    return parsePipelineFile(file, await loadStepAgents(projectRoot, { projectAgents: true }));
  const builtin = builtinPipelines.find((pipeline) => pipeline.name === name);
  if (builtin !== undefined) return { ok: true, pipeline: structuredClone(builtin) };
  const names = new Set([
    ...builtinPipelines.map((pipeline) => pipeline.name),
    ...folder.files.map(declaredPipelineName),
  ]);
  return failure(`no pipeline named "${name}"; the pipelines are ${[...names].join(", ")}`);
}

function sameNameProblem(name: string, files: readonly { source: string }[]): string {
  const sources = files.map((file) => file.source).sort();
  return `${sources.join(", ")} each name the pipeline "${name}"; keep one`;
}

/** In an untrusted folder: the built-ins only, and the project's folder is listed but no file in it read. */
async function builtinPipeline(projectRoot: string, name: string): Promise<PipelineParse> {
  const builtin = builtinPipelines.find((pipeline) => pipeline.name === name);
  if (builtin !== undefined) return { ok: true, pipeline: structuredClone(builtin) };
  const builtinNames = builtinPipelines.map((pipeline) => pipeline.name).join(", ");
  const files = await pipelineFileNames(projectRoot);
  if (files.includes(`${name}.md`))
    return failure(
      `${pipelinesFolder}/${name}.md was not read: ${projectRoot} is not trusted. Read the file, then trust the folder with \`lathe trust\` to use it, or choose a built-in pipeline (${builtinNames}).`,
    );
  const unread =
    files.length > 0
      ? ` (${pipelinesFolder} was not read: the folder is not trusted; \`lathe trust\` would allow it)`
      : "";
  return failure(`no pipeline named "${name}"; the built-in pipelines are ${builtinNames}${unread}`);
}

function listingOf(pipeline: PipelineSpec): PipelineListing {
  return {
    name: pipeline.name,
    description: pipeline.description ?? "",
    source: pipeline.source,
    steps: pipeline.steps.map((step) => `${step.agent.name}${step.optional ? "?" : ""}`),
  };
}

function failure(message: string): PipelineParse {
  return { ok: false, error: errorInfo("E_PIPELINE", message) };
}
