import type { EnvironmentFacts } from "./environment.js";
import { environmentLines } from "./environmentSection.js";
import { taggedSection } from "./taggedSection.js";

/** The dynamic part of the prompt (L4): facts and project knowledge, gathered per run. */
export interface ContextInputs {
  environment: EnvironmentFacts;
  /** Already rendered by the rules module. */
  rules?: string;
  /** Listed so the model knows what `fetch_rules` can load. */
  requestableRules?: readonly { name: string; description: string }[];
  memories?: readonly string[];
  repoMap?: string;
  /** From the task complexity analyzer. */
  strategyHint?: string;
  /** The user's agent the session acts as (a custom agent chosen as its mode), with its instructions. */
  persona?: { name: string; instructions: string };
}

/** L4 as tagged sections in a fixed order; a section with nothing to say is left out. */
export function contextSections(inputs: ContextInputs): string[] {
  const sections = [taggedSection("environment", environmentLines(inputs.environment).join("\n"))];
  const persona = inputs.persona;
  if (persona && persona.instructions.trim() !== "") {
    const lead = `The user chose you to act as their "${persona.name}" agent. Its instructions:`;
    sections.push(taggedSection("agent", `${lead}\n\n${persona.instructions.trim()}`));
  }
  const rules = inputs.rules?.trim();
  if (rules) {
    const lead = "Rules of this project and of the user. Follow them where they apply.";
    sections.push(taggedSection("rules", `${lead}\n\n${rules}`));
  }
  const requestable = inputs.requestableRules ?? [];
  if (requestable.length > 0) {
    const lead = "Rules you can load with fetch_rules, by name, when one applies to your task:";
    const items = requestable.map((rule) => `- ${rule.name}: ${singleLine(rule.description)}`);
    sections.push(taggedSection("available_rules", [lead, ...items].join("\n")));
  }
  const memories = (inputs.memories ?? []).map((memory) => memory.trim()).filter((memory) => memory !== "");
  if (memories.length > 0) {
    const lead =
      "Notes saved in earlier sessions of this project. They can be out of date: check them against the code before relying on them.";
    sections.push(taggedSection("memories", [lead, ...memories.map(listItem)].join("\n")));
  }
  const repoMap = inputs.repoMap?.trim();
  if (repoMap) {
    const lead = "The project's most referenced files and symbols:";
    sections.push(taggedSection("repo_map", `${lead}\n${repoMap}`));
  }
  const strategy = inputs.strategyHint?.trim();
  if (strategy) sections.push(taggedSection("strategy", strategy));
  return sections;
}

function singleLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A markdown list item whose later lines stay inside the item. */
function listItem(text: string): string {
  return `- ${text.replace(/\n/g, "\n  ")}`;
}
