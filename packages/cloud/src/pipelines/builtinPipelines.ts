import type { AgentSpec, PipelineSpec, PipelineStep, StepPurpose } from "./pipelineSpec.js";
import { coderAgent, documenterAgent, plannerAgent, researcherAgent, reviewerAgent } from "./roleAgents.js";

function step(agent: AgentSpec, purpose: StepPurpose, optional = false): PipelineStep {
  return { agent, purpose, optional, onDevice: false };
}

export const defaultPipeline: PipelineSpec = {
  name: "default",
  description: "Plan, research when the plan asks for it, code, review, then document what changed.",
  source: "builtin",
  steps: [
    step(plannerAgent, "work"),
    step(researcherAgent, "work", true),
    step(coderAgent, "work"),
    step(reviewerAgent, "review"),
    step(documenterAgent, "work", true),
  ],
  coder: "coder",
  maxSendBacks: 1,
  instructions: "",
};

export const quickPipeline: PipelineSpec = {
  name: "quick",
  description: "Code, then review: for small, well-described changes.",
  source: "builtin",
  steps: [step(coderAgent, "work"), step(reviewerAgent, "review")],
  coder: "coder",
  maxSendBacks: 1,
  instructions: "",
};

export const builtinPipelines: readonly PipelineSpec[] = [defaultPipeline, quickPipeline];
