import { platform, release } from "node:os";
import { type GitFacts, readGitSummary } from "./gitSummary.js";

/** What the model is told about the machine and the project in `<environment>`. */
export interface EnvironmentFacts {
  os: string;
  shell: string;
  /** YYYY-MM-DD, in the user's time zone. */
  date: string;
  cwd: string;
  /** Undefined when the project is not a git work tree or git is unavailable. */
  git?: GitFacts;
}

/** Gathers the facts for the prompt. Never throws: git problems leave `git` out. */
export async function describeEnvironment(options: {
  projectRoot: string;
  shell: string;
  now: Date;
  /** The project's git summary when its reading started earlier (`readGitSummary`); read now otherwise. */
  gitSummary?: Promise<GitFacts | undefined>;
}): Promise<EnvironmentFacts> {
  const git = await (options.gitSummary ?? readGitSummary(options.projectRoot));
  const facts: EnvironmentFacts = {
    os: `${platform()} ${release()}`,
    shell: options.shell,
    date: localDate(options.now),
    cwd: options.projectRoot,
  };
  return git === undefined ? facts : { ...facts, git };
}

/** The user's calendar day, which is what "today" means to them (not the UTC day). */
function localDate(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
