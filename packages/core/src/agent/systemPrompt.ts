import { readFileSync } from "node:fs";
import { platform, release } from "node:os";
import type { Mode } from "@lathe/protocol";
import { modeGuidance } from "./modePrompts.js";

const basePrompt = readFileSync(new URL("./systemPrompt.md", import.meta.url), "utf8").trim();

export interface EnvironmentFacts {
  projectRoot: string;
  now: Date;
  shell: string;
}

export function buildSystemPrompt(mode: Mode, env: EnvironmentFacts): string {
  const environment = [
    "<environment>",
    `OS: ${platform()} ${release()}`,
    `Shell: ${env.shell}`,
    `Date: ${env.now.toISOString().slice(0, 10)}`,
    `Project root (working directory): ${env.projectRoot}`,
    "</environment>",
  ].join("\n");
  return `${basePrompt}\n\n${modeGuidance[mode]}\n\n${environment}`;
}
