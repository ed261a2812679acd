import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { errorInfo } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultPipeline, quickPipeline } from "../src/pipelines/builtinPipelines.js";
import { listPipelines, loadPipeline } from "../src/pipelines/pipelineLoader.js";
import type { PipelineSpec } from "../src/pipelines/pipelineSpec.js";
import {
  coderAgent,
  documenterAgent,
  plannerAgent,
  rankingInstructions,
  researcherAgent,
  reviewerAgent,
} from "../src/pipelines/roleAgents.js";
import { loadStepAgents } from "../src/pipelines/stepAgents.js";

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-pipelines-")));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, text: string) {
  const file = join(root, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const trusted = { projectFiles: true };
const untrusted = { projectFiles: false };

/** What a chain looks like at a glance: name, purpose, `?` when optional, `@device` when on the device. */
function chainOf(pipeline: PipelineSpec): string[] {
  return pipeline.steps.map(
    (step) =>
      `${step.agent.name}${step.optional ? "?" : ""}:${step.purpose}${step.onDevice ? "@device" : ""}`,
  );
}

async function loaded(name: string, options: { projectFiles: boolean; verify?: string } = trusted) {
  const result = await loadPipeline(root, name, options);
  if (!result.ok) throw new Error(result.error.message);
  return result.pipeline;
}

describe("built-in pipelines", () => {
  it("default: planner, optional researcher, coder, reviewer, optional documenter", async () => {
    const pipeline = await loaded("default");
    expect(pipeline).toEqual(defaultPipeline);
    expect(chainOf(pipeline)).toEqual([
      "planner:work",
      "researcher?:work",
      "coder:work",
      "reviewer:review",
      "documenter?:work",
    ]);
    expect(pipeline.steps.map((step) => step.agent)).toEqual([
      plannerAgent,
      researcherAgent,
      coderAgent,
      reviewerAgent,
      documenterAgent,
    ]);
    expect({ coder: pipeline.coder, maxSendBacks: pipeline.maxSendBacks, verify: pipeline.verify }).toEqual({
      coder: "coder",
      maxSendBacks: 1,
      verify: undefined,
    });
    expect(pipeline.instructions).toBe("");
    expect(pipeline.source).toBe("builtin");
  });

  it("quick: coder, then reviewer", async () => {
    const pipeline = await loaded("quick", untrusted);
    expect(pipeline).toEqual(quickPipeline);
    expect(chainOf(pipeline)).toEqual(["coder:work", "reviewer:review"]);
  });

  it("role agents: the readonly ones only look, and each ends with the lines the next steps read", () => {
    expect(
      [plannerAgent, researcherAgent, coderAgent, reviewerAgent, documenterAgent].map((agent) => [
        agent.name,
        agent.readonly,
        agent.source,
      ]),
    ).toEqual([
      ["planner", true, "builtin"],
      ["researcher", true, "builtin"],
      ["coder", false, "builtin"],
      ["reviewer", true, "builtin"],
      ["documenter", false, "builtin"],
    ]);
    expect(plannerAgent.instructions).toContain("`SKIP: researcher`");
    expect(reviewerAgent.instructions).toContain("`VERDICT: approve` or `VERDICT: revise`");
    expect(reviewerAgent.instructions).toContain("`SKIP: documenter`");
    const ranking = rankingInstructions([1, 2, 3]);
    expect(ranking).toContain("(attempts 1, 2, 3)");
    expect(ranking.endsWith("one line naming every attempt, best first, such as `RANKING: 3, 2, 1`.")).toBe(
      true,
    );
  });

  it("a --verify given replaces the pipeline's check, trimmed", async () => {
    const pipeline = await loaded("quick", { projectFiles: false, verify: "  npm test  " });
    expect(pipeline.verify).toBe("npm test");
    expect(quickPipeline.verify).toBeUndefined();
    expect(await loadPipeline(root, "quick", { projectFiles: false, verify: " " })).toEqual({
      ok: false,
      error: errorInfo("E_PIPELINE", "the verify command is empty"),
    });
    expect(await loadPipeline(root, "quick", { projectFiles: false, verify: "x".repeat(2_001) })).toEqual({
      ok: false,
      error: errorInfo("E_PIPELINE", "the verify command is 2001 characters; at most 2000"),
    });
  });
});

describe("pipeline files", () => {
  it("reads every key, with optional steps, on-device steps and the body as instructions", async () => {
    write(
      ".lathe/pipelines/careful.md",
      [
        "---",
        "description: Plan first, and check twice",
        "# steps in the order they run",
        "steps: [planner, researcher?, coder, reviewer, documenter?]",
        "verify: npm test -- --run",
        "send_backs: 2",
        "on_device: [coder]",
        "---",
        "",
        "Keep every change small.",
        "",
      ].join("\n"),
    );
    const pipeline = await loaded("careful");
    expect(pipeline).toEqual({
      name: "careful",
      description: "Plan first, and check twice",
      source: ".lathe/pipelines/careful.md",
      steps: [
        { agent: plannerAgent, purpose: "work", optional: false, onDevice: false },
        { agent: researcherAgent, purpose: "work", optional: true, onDevice: false },
        { agent: coderAgent, purpose: "work", optional: false, onDevice: true },
        { agent: reviewerAgent, purpose: "review", optional: false, onDevice: false },
        { agent: documenterAgent, purpose: "work", optional: true, onDevice: false },
      ],
      coder: "coder",
      verify: "npm test -- --run",
      maxSendBacks: 2,
      instructions: "Keep every change small.",
    } satisfies PipelineSpec);
  });

  it("gives a file of steps alone its defaults: its file's name, one send-back, no check, no review", async () => {
    write(".lathe/pipelines/solo.md", "---\nsteps: coder, documenter?\n---\n");
    expect(await loaded("solo")).toEqual({
      name: "solo",
      source: ".lathe/pipelines/solo.md",
      steps: [
        { agent: coderAgent, purpose: "work", optional: false, onDevice: false },
        { agent: documenterAgent, purpose: "work", optional: true, onDevice: false },
      ],
      coder: "coder",
      maxSendBacks: 1,
      instructions: "",
    } satisfies PipelineSpec);
  });

  it("reuses a project agent as a step, names the coder and the reviewer, and takes steps as - lines", async () => {
    write(
      ".lathe/agents/security.md",
      "---\ndescription: Security review\nreadonly: true\nmodel: anthropic:claude-sonnet-4-5\ntools: [read_file, search_files]\n---\nLook for injection.\n",
    );
    write(".lathe/agents/builder.md", "---\ndescription: Builds\n---\nBuild it.\n");
    write(
      ".lathe/pipelines/secure.md",
      "---\nname: secure-change\nsteps:\n  - builder\n  - security\n  - general?\ncoder: builder\nreview: security\nsend_backs: 0\n---\n",
    );
    const pipeline = await loaded("secure-change");
    expect(chainOf(pipeline)).toEqual(["builder:work", "security:review", "general?:work"]);
    expect(pipeline.steps[1]?.agent).toEqual({
      name: "security",
      instructions: "Look for injection.",
      readonly: true,
      model: "anthropic:claude-sonnet-4-5",
      tools: ["read_file", "search_files"],
      source: ".lathe/agents/security.md",
    });
    expect(pipeline.steps[2]?.agent.source).toBe("builtin");
    expect({ name: pipeline.name, coder: pipeline.coder, maxSendBacks: pipeline.maxSendBacks }).toEqual({
      name: "secure-change",
      coder: "builder",
      maxSendBacks: 0,
    });
    // Found by the name it gives itself, not by its file's name.
    expect((await loadPipeline(root, "secure", trusted)).ok).toBe(false);
  });

  it("resolves agents to the project's, then the role agents, then core's; the project's only when asked", async () => {
    write(".lathe/agents/explore.md", "---\ndescription: Ours\nreadonly: true\n---\nLook harder.\n");
    write(".lathe/agents/tester.md", "---\ndescription: Tests\n---\nTest.\n");
    const withProject = await loadStepAgents(root, { projectAgents: true });
    expect([...withProject.byName.values()].map((agent) => [agent.name, agent.source])).toEqual([
      ["explore", ".lathe/agents/explore.md"],
      ["general", "builtin"],
      ["planner", "builtin"],
      ["researcher", "builtin"],
      ["coder", "builtin"],
      ["reviewer", "builtin"],
      ["documenter", "builtin"],
      ["tester", ".lathe/agents/tester.md"],
    ]);
    const builtinOnly = await loadStepAgents(root, { projectAgents: false });
    expect([...builtinOnly.byName.values()].map((agent) => agent.source)).toEqual(Array(7).fill("builtin"));
    expect(builtinOnly.byName.get("explore")?.instructions).toMatch(/^You are a read-only explorer\./);
  });

  it("prefers a project agent over the role agent of the same name", async () => {
    write(".lathe/agents/coder.md", "---\ndescription: Our coder\n---\nUse tabs.\n");
    write(".lathe/pipelines/ours.md", "---\nsteps: [coder, reviewer]\n---\n");
    const pipeline = await loaded("ours");
    expect(pipeline.steps[0]?.agent).toEqual({
      name: "coder",
      instructions: "Use tabs.",
      readonly: false,
      source: ".lathe/agents/coder.md",
    });
    expect(pipeline.steps[1]?.agent).toEqual(reviewerAgent);
  });

  it("a project file replaces the built-in of its name, in a trusted folder only", async () => {
    write(".lathe/pipelines/default.md", "---\ndescription: Ours\nsteps: [coder]\n---\n");
    expect(chainOf(await loaded("default"))).toEqual(["coder:work"]);
    expect(await loaded("default", untrusted)).toEqual(defaultPipeline);
  });

  it("reads no project file in an untrusted folder, and says so for a pipeline only the project has", async () => {
    // Each would fail to parse if it were read.
    write(".lathe/pipelines/careful.md", "---\nsteps: [nobody]\n---\n");
    write(".lathe/pipelines/quick.md", "---\nbroken\n---\n");
    write(".lathe/agents/coder.md", "---\nname: Not Valid\n---\n");
    expect(await loaded("quick", untrusted)).toEqual(quickPipeline);
    expect(await loadPipeline(root, "careful", untrusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        `.lathe/pipelines/careful.md was not read: ${root} is not trusted. Read the file, then trust the folder with \`lathe trust\` to use it, or choose a built-in pipeline (default, quick).`,
      ),
    });
    expect(await loadPipeline(root, "fast", untrusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        'no pipeline named "fast"; the built-in pipelines are default, quick (.lathe/pipelines was not read: the folder is not trusted; `lathe trust` would allow it)',
      ),
    });
  });

  it("an unknown name lists the pipelines there are", async () => {
    write(".lathe/pipelines/careful.md", "---\nsteps: [coder]\n---\n");
    expect(await loadPipeline(root, "fast", trusted)).toEqual({
      ok: false,
      error: errorInfo("E_PIPELINE", 'no pipeline named "fast"; the pipelines are default, quick, careful'),
    });
    rmSync(join(root, ".lathe"), { recursive: true });
    expect(await loadPipeline(root, "../careful", untrusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        'no pipeline named "../careful"; the built-in pipelines are default, quick',
      ),
    });
  });

  it("never runs the verify command while reading", async () => {
    const marker = join(root, "ran");
    write(".lathe/pipelines/careful.md", `---\nsteps: [coder]\nverify: touch ${marker}\n---\n`);
    expect((await loaded("careful")).verify).toBe(`touch ${marker}`);
    await listPipelines(root, trusted);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("mistakes in pipeline files", () => {
  const keys = "name, description, steps, verify, send_backs, coder, review, on_device";
  const agents = "coder, documenter, explore, general, planner, researcher, reviewer";
  const rows: { name: string; text: string; message: string }[] = [
    {
      name: "front matter never closed",
      text: "---\nsteps: [coder]\n",
      message: ".lathe/pipelines/bad.md: front matter starts with --- on line 1 but is never closed",
    },
    {
      name: "a line that is not key: value",
      text: "---\nsteps: [coder]\njust words\n---\n",
      message: '.lathe/pipelines/bad.md: front matter line 3: expected "key: value", got "just words"',
    },
    {
      name: "unknown key",
      text: "---\nsteps: [coder]\nretries: 2\n---\n",
      message: `.lathe/pipelines/bad.md line 3 (retries): unknown key "retries"; a pipeline's keys are ${keys}`,
    },
    {
      name: "no steps at all",
      text: "Just instructions.\n",
      message:
        ".lathe/pipelines/bad.md (steps): a pipeline needs steps: a list of agents such as [planner, coder, reviewer]",
    },
    {
      name: "steps empty",
      text: "---\nsteps: []\n---\n",
      message: ".lathe/pipelines/bad.md line 2 (steps): steps is empty; name at least the coder",
    },
    {
      name: "steps not a list",
      text: "---\nsteps: true\n---\n",
      message:
        ".lathe/pipelines/bad.md line 2 (steps): steps must be a list of agents such as [planner, coder, reviewer]",
    },
    {
      name: "more than 12 steps",
      text: `---\nsteps: [${Array.from({ length: 13 }, (_, index) => `a${index}`).join(", ")}]\n---\n`,
      message: ".lathe/pipelines/bad.md line 2 (steps): 13 steps; a pipeline has at most 12",
    },
    {
      name: "a step that is not an agent name",
      text: "---\nsteps: [coder, Review!]\n---\n",
      message:
        '.lathe/pipelines/bad.md line 2 (steps): "Review!" is not an agent name (lowercase letters, digits and dashes; a trailing ? makes the step optional)',
    },
    {
      name: "unknown agent",
      text: "---\n\nsteps: [coder, tester]\n---\n",
      message: `.lathe/pipelines/bad.md line 3 (steps): unknown agent "tester"; the agents are ${agents}`,
    },
    {
      name: "a step twice",
      text: "---\nsteps: [coder, reviewer, coder?]\n---\n",
      message: '.lathe/pipelines/bad.md line 2 (steps): the step "coder" is listed twice',
    },
    {
      name: "no coder step",
      text: "---\nsteps: [planner, reviewer]\n---\n",
      message:
        '.lathe/pipelines/bad.md (coder): no step is named "coder"; add it to steps, or name the coding step with coder:',
    },
    {
      name: "a coder that is not a step",
      text: "---\nsteps: [coder]\ncoder: general\n---\n",
      message: '.lathe/pipelines/bad.md line 3 (coder): the coder "general" is not one of the steps',
    },
    {
      name: "a read-only coder",
      text: "---\nsteps: [explore, reviewer]\ncoder: explore\n---\n",
      message:
        '.lathe/pipelines/bad.md line 3 (coder): the coder "explore" is a read-only agent and could not change anything',
    },
    {
      name: "an optional coder",
      text: "---\nsteps: [coder?]\n---\n",
      message: '.lathe/pipelines/bad.md (coder): the coder "coder" cannot be optional',
    },
    {
      name: "a review that is not a step",
      text: "---\nsteps: [coder]\nreview: reviewer\n---\n",
      message: '.lathe/pipelines/bad.md line 3 (review): the review step "reviewer" is not one of the steps',
    },
    {
      name: "the coder reviewing itself",
      text: "---\nsteps: [coder]\nreview: coder\n---\n",
      message: '.lathe/pipelines/bad.md line 3 (review): the coder "coder" cannot review its own work',
    },
    {
      name: "a review before the coder",
      text: "---\nsteps: [reviewer, coder]\n---\n",
      message:
        '.lathe/pipelines/bad.md (review): the review step "reviewer" comes before the coder "coder"; it reviews the coder\'s work',
    },
    {
      name: "on_device naming no step",
      text: "---\nsteps: [coder]\non_device: [coder, reviewer]\n---\n",
      message: '.lathe/pipelines/bad.md line 3 (on_device): "reviewer" is not one of the steps',
    },
    {
      name: "send_backs above 5",
      text: "---\nsteps: [coder]\nsend_backs: 6\n---\n",
      message:
        '.lathe/pipelines/bad.md line 3 (send_backs): send_backs must be a whole number from 0 to 5, not "6"',
    },
    {
      name: "send_backs negative",
      text: "---\nsteps: [coder]\nsend_backs: -1\n---\n",
      message:
        '.lathe/pipelines/bad.md line 3 (send_backs): send_backs must be a whole number from 0 to 5, not "-1"',
    },
    {
      name: "send_backs in words",
      text: "---\nsteps: [coder]\nsend_backs: two\n---\n",
      message:
        '.lathe/pipelines/bad.md line 3 (send_backs): send_backs must be a whole number from 0 to 5, not "two"',
    },
    {
      name: "verify too long",
      text: `---\nsteps: [coder]\nverify: ${"x".repeat(2_001)}\n---\n`,
      message: ".lathe/pipelines/bad.md line 3 (verify): verify is 2001 characters; at most 2000",
    },
    {
      name: "verify not a command",
      text: "---\nsteps: [coder]\nverify: true\n---\n",
      message: ".lathe/pipelines/bad.md line 3 (verify): verify must be a line of text",
    },
    {
      name: "a description that is not a line of text",
      text: "---\nname: bad\nsteps: [coder]\ndescription: [a, b]\n---\n",
      message: ".lathe/pipelines/bad.md line 4 (description): description must be a line of text",
    },
    {
      name: "instructions too long",
      text: `---\nsteps: [coder]\n---\n${"y".repeat(20_001)}`,
      message: ".lathe/pipelines/bad.md (instructions): the body is 20001 characters; at most 20000",
    },
  ];
  it.each(rows)("$name", async ({ text, message }) => {
    write(".lathe/pipelines/bad.md", text);
    expect(await loadPipeline(root, "bad", trusted)).toEqual({
      ok: false,
      error: errorInfo("E_PIPELINE", message),
    });
  });

  it("a name that is not a pipeline name, given or taken from the file", async () => {
    write(".lathe/pipelines/fancy.md", "---\nname: Fancy Name\nsteps: [coder]\n---\n");
    expect(await loadPipeline(root, "Fancy Name", trusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        '.lathe/pipelines/fancy.md line 2 (name): "Fancy Name" is not a pipeline name (lowercase letters, digits and dashes, at most 60)',
      ),
    });
    write(".lathe/pipelines/My_Flow.md", "---\nsteps: [coder]\n---\n");
    expect(await loadPipeline(root, "My_Flow", trusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        '.lathe/pipelines/My_Flow.md (name): the file name "My_Flow" is not a pipeline name (lowercase letters, digits and dashes); rename the file or set name:',
      ),
    });
  });

  it("names the project agent file that kept an agent out", async () => {
    write(".lathe/agents/tester.md", "---\nreadonly: true\n---\nTest.\n");
    write(".lathe/pipelines/bad.md", "---\nsteps: [coder, tester]\n---\n");
    expect(await loadPipeline(root, "bad", trusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        '.lathe/pipelines/bad.md line 2 (steps): unknown agent "tester": .lathe/agents/tester.md: an agent needs a description (the model chooses agents by it)',
      ),
    });
  });

  it("two files giving the same name, a file too large, and one that cannot be read", async () => {
    write(".lathe/pipelines/one.md", "---\nname: same\nsteps: [coder]\n---\n");
    write(".lathe/pipelines/two.md", "---\nname: same\nsteps: [coder]\n---\n");
    expect(await loadPipeline(root, "same", trusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        '.lathe/pipelines/one.md, .lathe/pipelines/two.md each name the pipeline "same"; keep one',
      ),
    });
    write(".lathe/pipelines/huge.md", "x".repeat(70_000));
    expect(await loadPipeline(root, "huge", trusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        ".lathe/pipelines/huge.md: 70000 bytes; a pipeline file has at most 65536",
      ),
    });
    write(".lathe/pipelines/also-huge.md", "---\nname: huge\nsteps: [coder]\n---\n");
    expect(await loadPipeline(root, "huge", trusted)).toEqual({
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        '.lathe/pipelines/also-huge.md, .lathe/pipelines/huge.md each name the pipeline "huge"; keep one',
      ),
    });
    mkdirSync(join(root, ".lathe/pipelines/folder.md"));
    expect(await loadPipeline(root, "folder", trusted)).toEqual({
      ok: false,
      error: errorInfo("E_PIPELINE", ".lathe/pipelines/folder.md: cannot be read (EISDIR)"),
    });
  });
});

describe("listPipelines", () => {
  it("lists the built-ins, then the project's in a trusted folder, each with its mistake", async () => {
    write(".lathe/pipelines/careful.md", "---\ndescription: Slow\nsteps: [planner, coder, reviewer?]\n---\n");
    write(".lathe/pipelines/quick.md", "---\nsteps: [coder]\n---\n");
    write(".lathe/pipelines/broken.md", "---\nsteps: [nobody]\n---\n");
    write(".lathe/pipelines/again.md", "---\nname: careful\nsteps: [coder]\n---\n");
    const twice =
      '.lathe/pipelines/again.md, .lathe/pipelines/careful.md each name the pipeline "careful"; keep one';
    expect(await listPipelines(root, trusted)).toEqual([
      {
        name: "default",
        description: defaultPipeline.description,
        source: "builtin",
        steps: ["planner", "researcher?", "coder", "reviewer", "documenter?"],
      },
      {
        name: "careful",
        description: "",
        source: ".lathe/pipelines/again.md",
        steps: ["coder"],
        problem: twice,
      },
      {
        name: "broken",
        description: "",
        source: ".lathe/pipelines/broken.md",
        steps: [],
        problem: `.lathe/pipelines/broken.md line 2 (steps): unknown agent "nobody"; the agents are coder, documenter, explore, general, planner, researcher, reviewer`,
      },
      {
        name: "careful",
        description: "Slow",
        source: ".lathe/pipelines/careful.md",
        steps: ["planner", "coder", "reviewer?"],
        problem: twice,
      },
      { name: "quick", description: "", source: ".lathe/pipelines/quick.md", steps: ["coder"] },
    ]);
    expect(await listPipelines(root, untrusted)).toEqual([
      {
        name: "default",
        description: "Plan, research when the plan asks for it, code, review, then document what changed.",
        source: "builtin",
        steps: ["planner", "researcher?", "coder", "reviewer", "documenter?"],
      },
      {
        name: "quick",
        description: "Code, then review: for small, well-described changes.",
        source: "builtin",
        steps: ["coder", "reviewer"],
      },
    ]);
  });
});
