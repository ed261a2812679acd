import { type FrontMatterValue, parseFrontMatter } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { type AgentSpec, type PipelineSpec, type PipelineStep, pipelineSpecSchema } from "./pipelineSpec.js";
import type { StepAgents } from "./stepAgents.js";

/** A pipeline file as read from the project. */
export interface PipelineFile {
  /** Relative to the project root, with `/`: `.lathe/pipelines/careful.md`. */
  source: string;
  text: string;
}

export type PipelineParse = { ok: true; pipeline: PipelineSpec } | { ok: false; error: LatheErrorInfo };

export const pipelineNamePattern = /^[a-z][a-z0-9-]{0,59}$/;
export const maxPipelineSteps = 12;
export const maxVerifyChars = 2_000;

const pipelineKeys = ["name", "description", "steps", "verify", "send_backs", "coder", "review", "on_device"];
/** An agent's name, with `?` when the step may be skipped. */
const stepPattern = /^([a-z][a-z0-9-]{0,39})(\?)?$/;
const maxSendBacks = 5;
const maxDescriptionChars = 500;
const maxInstructionsChars = 20_000;

/** A key's value, or what is wrong with it. */
type Field<T> = { ok: true; value: T } | { ok: false; key: string; problem: string };

type Data = Readonly<Record<string, FrontMatterValue>>;

interface ChainLink {
  agent: AgentSpec;
  optional: boolean;
}

/**
 * A `.lathe/pipelines/<name>.md` file: flat front matter (name, description, steps, verify,
 * send_backs, coder, review, on_device) and a body said to every step. Only reads the text: a
 * verify command is checked for its length and never run here. Every mistake is an `E_PIPELINE`
 * naming the file and the line of the key at fault.
 */
export function parsePipelineFile(file: PipelineFile, agents: StepAgents): PipelineParse {
  const front = parseFrontMatter(file.text);
  if (!front.ok) return failure(`${file.source}: ${front.message}`);
  const parsed = pipelineFrom(file, front.data, front.body.trim(), agents);
  if (!parsed.ok) return failure(`${file.source}${where(file.text, parsed.key)}: ${parsed.problem}`);
  const checked = pipelineSpecSchema.safeParse(parsed.value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return failure(`${file.source}: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return { ok: true, pipeline: checked.data };
}

/** The name a pipeline file gives itself (`name:`), else its file's name without `.md`. */
export function declaredPipelineName(file: PipelineFile): string {
  const front = parseFrontMatter(file.text);
  if (front.ok && typeof front.data.name === "string") return front.data.name;
  return fileStem(file.source);
}

function pipelineFrom(file: PipelineFile, data: Data, body: string, agents: StepAgents): Field<PipelineSpec> {
  const unknown = Object.keys(data).find((key) => !pipelineKeys.includes(key));
  if (unknown !== undefined)
    return problem(unknown, `unknown key "${unknown}"; a pipeline's keys are ${pipelineKeys.join(", ")}`);
  const name = pipelineName(file, data);
  if (!name.ok) return name;
  const description = text(data, "description", maxDescriptionChars);
  if (!description.ok) return description;
  const chain = stepChain(data, agents);
  if (!chain.ok) return chain;
  const coder = coderStep(data, chain.value);
  if (!coder.ok) return coder;
  const review = reviewStep(data, chain.value, coder.value);
  if (!review.ok) return review;
  const onDevice = onDeviceSteps(data, chain.value);
  if (!onDevice.ok) return onDevice;
  const sendBacks = sendBackCount(data);
  if (!sendBacks.ok) return sendBacks;
  const verify = text(data, "verify", maxVerifyChars);
  if (!verify.ok) return verify;
  if (body.length > maxInstructionsChars)
    return problem("instructions", `the body is ${body.length} characters; at most ${maxInstructionsChars}`);
  const steps = chain.value.map(
    (link): PipelineStep => ({
      agent: link.agent,
      purpose: link.agent.name === review.value ? "review" : "work",
      optional: link.optional,
      onDevice: onDevice.value.has(link.agent.name),
    }),
  );
  return {
    ok: true,
    value: {
      name: name.value,
      ...(description.value === undefined ? {} : { description: description.value }),
      source: file.source,
      steps,
      coder: coder.value,
      ...(verify.value === undefined ? {} : { verify: verify.value }),
      maxSendBacks: sendBacks.value,
      instructions: body,
    },
  };
}

function pipelineName(file: PipelineFile, data: Data): Field<string> {
  const given = data.name;
  if (given === undefined) {
    const stem = fileStem(file.source);
    if (pipelineNamePattern.test(stem)) return { ok: true, value: stem };
    return problem(
      "name",
      `the file name "${stem}" is not a pipeline name (lowercase letters, digits and dashes); rename the file or set name:`,
    );
  }
  if (typeof given !== "string" || !pipelineNamePattern.test(given))
    return problem(
      "name",
      `"${String(given)}" is not a pipeline name (lowercase letters, digits and dashes, at most 60)`,
    );
  return { ok: true, value: given };
}

/** An optional one-line text, such as `description` or `verify`. */
function text(data: Data, key: string, max: number): Field<string | undefined> {
  const value = data[key];
  if (value === undefined) return { ok: true, value: undefined };
  if (typeof value !== "string" || value.trim() === "") return problem(key, `${key} must be a line of text`);
  if (value.length > max) return problem(key, `${key} is ${value.length} characters; at most ${max}`);
  return { ok: true, value: value.trim() };
}

function stepChain(data: Data, agents: StepAgents): Field<ChainLink[]> {
  if (data.steps === undefined)
    return problem("steps", "a pipeline needs steps: a list of agents such as [planner, coder, reviewer]");
  const entries = nameList(data.steps);
  if (entries === undefined)
    return problem("steps", "steps must be a list of agents such as [planner, coder, reviewer]");
  if (entries.length === 0) return problem("steps", "steps is empty; name at least the coder");
  if (entries.length > maxPipelineSteps)
    return problem("steps", `${entries.length} steps; a pipeline has at most ${maxPipelineSteps}`);
  const chain: ChainLink[] = [];
  for (const entry of entries) {
    const match = stepPattern.exec(entry);
    if (match === null)
      return problem(
        "steps",
        `"${entry}" is not an agent name (lowercase letters, digits and dashes; a trailing ? makes the step optional)`,
      );
    const [, name = "", mark] = match;
    if (chain.some((link) => link.agent.name === name))
      return problem("steps", `the step "${name}" is listed twice`);
    const agent = agents.byName.get(name);
    if (agent === undefined) return problem("steps", unknownAgent(name, agents));
    chain.push({ agent, optional: mark === "?" });
  }
  return { ok: true, value: chain };
}

function unknownAgent(name: string, agents: StepAgents): string {
  const fileProblem = agents.problems.get(name);
  if (fileProblem !== undefined) return `unknown agent "${name}": ${fileProblem}`;
  return `unknown agent "${name}"; the agents are ${[...agents.byName.keys()].sort().join(", ")}`;
}

function coderStep(data: Data, chain: readonly ChainLink[]): Field<string> {
  const given = data.coder;
  if (given !== undefined && typeof given !== "string")
    return problem("coder", "coder must name one of the steps");
  const name = given ?? "coder";
  const link = chain.find((candidate) => candidate.agent.name === name);
  if (link === undefined)
    return problem(
      "coder",
      given === undefined
        ? `no step is named "coder"; add it to steps, or name the coding step with coder:`
        : `the coder "${name}" is not one of the steps`,
    );
  if (link.agent.readonly)
    return problem("coder", `the coder "${name}" is a read-only agent and could not change anything`);
  if (link.optional) return problem("coder", `the coder "${name}" cannot be optional`);
  return { ok: true, value: name };
}

/** The reviewing step: `review:`, else a step named `reviewer`, else none. It must come after the coder. */
function reviewStep(data: Data, chain: readonly ChainLink[], coder: string): Field<string | undefined> {
  const given = data.review;
  if (given !== undefined && typeof given !== "string")
    return problem("review", "review must name one of the steps");
  const name = given ?? (chain.some((link) => link.agent.name === "reviewer") ? "reviewer" : undefined);
  if (name === undefined) return { ok: true, value: undefined };
  const position = chain.findIndex((link) => link.agent.name === name);
  if (position === -1) return problem("review", `the review step "${name}" is not one of the steps`);
  if (name === coder) return problem("review", `the coder "${name}" cannot review its own work`);
  if (position < chain.findIndex((link) => link.agent.name === coder))
    return problem(
      "review",
      `the review step "${name}" comes before the coder "${coder}"; it reviews the coder's work`,
    );
  return { ok: true, value: name };
}

function onDeviceSteps(data: Data, chain: readonly ChainLink[]): Field<Set<string>> {
  if (data.on_device === undefined) return { ok: true, value: new Set() };
  const names = nameList(data.on_device);
  if (names === undefined) return problem("on_device", "on_device must be a list of steps, such as [coder]");
  const unknown = names.find((name) => !chain.some((link) => link.agent.name === name));
  if (unknown !== undefined) return problem("on_device", `"${unknown}" is not one of the steps`);
  return { ok: true, value: new Set(names) };
}

function sendBackCount(data: Data): Field<number> {
  const value = data.send_backs;
  if (value === undefined) return { ok: true, value: 1 };
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) > maxSendBacks)
    return problem(
      "send_backs",
      `send_backs must be a whole number from 0 to ${maxSendBacks}, not "${String(value)}"`,
    );
  return { ok: true, value: Number(value) };
}

/** A list as `[a, b]`, as `- a` lines, or as `a, b` on the key's line; undefined for a boolean. */
function nameList(value: FrontMatterValue | undefined): string[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return undefined;
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function problem(key: string, message: string): { ok: false; key: string; problem: string } {
  return { ok: false, key, problem: message };
}

function failure(message: string): { ok: false; error: LatheErrorInfo } {
  return { ok: false, error: errorInfo("E_PIPELINE", message) };
}

/** ` line 4 (steps)` when the key is in the front matter, else ` (steps)`. */
function where(text: string, key: string): string {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const end =
    lines[0]?.trimEnd() === "---"
      ? lines.findIndex((line, index) => index > 0 && line.trimEnd() === "---")
      : -1;
  for (let index = 1; index < end; index++) {
    const line = lines[index] ?? "";
    if (line.startsWith(key) && /^\s*:/.test(line.slice(key.length))) return ` line ${index + 1} (${key})`;
  }
  return ` (${key})`;
}

function fileStem(source: string): string {
  return (source.split("/").at(-1) ?? source).replace(/\.md$/, "");
}
