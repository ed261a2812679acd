import os from "node:os";

/** A `name=value` git setting, kept as a pair: a name may itself hold `=` (`filter.a=b.clean`). */
export type GitSetting = readonly [name: string, value: string];

/**
 * Settings every git Lathe starts runs with, whatever the repository's or the user's config says.
 * Each names a program git would otherwise start, or a prompt it would otherwise show:
 * - `core.fsmonitor` runs a program on every status and diff;
 * - `core.hooksPath` to the null device leaves no hook to find (checkout, commit and gc run hooks);
 * - the pager, `diff.external` and `log.showSignature` (which runs `gpg.program`);
 * - credential helpers, askpass and `core.sshCommand`, and every transport through
 *   `protocol.allow` (a lazy fetch of a partial clone would start a remote helper). The settings that
 *   only act while packs are sent or received (`core.alternateRefsCommand`, `core.gitProxy`,
 *   `uploadpack.packObjectsHook`, which git reads only from protected config anyway) never come
 *   into play without a transport.
 * An empty value resets the setting; where git would try to run an empty command it fails instead,
 * which is the safe way round.
 */
export const protectiveSettings: readonly GitSetting[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", os.devNull],
  ["core.pager", "cat"],
  ["diff.external", ""],
  ["log.showSignature", "false"],
  ["credential.helper", ""],
  ["core.askPass", ""],
  ["core.sshCommand", ""],
  ["protocol.allow", "never"],
  ["submodule.recurse", "false"],
  // Plain output for every caller: parsed or shown as it is.
  ["color.ui", "false"],
  ["core.quotepath", "false"],
];

/**
 * Options added right after the subcommand. `--no-ext-diff` and `--no-textconv` keep diff drivers
 * named by `.gitattributes` from running; `--ignore-submodules=all` keeps status and work-tree
 * diffs from starting git inside submodules, whose own config these settings never saw.
 */
const subcommandOptions: Readonly<Record<string, readonly string[]>> = {
  status: ["--ignore-submodules=all"],
  diff: ["--no-ext-diff", "--no-textconv", "--ignore-submodules=all"],
  "diff-index": ["--no-ext-diff", "--no-textconv", "--ignore-submodules=all"],
  "diff-files": ["--no-ext-diff", "--no-textconv", "--ignore-submodules=all"],
  "diff-tree": ["--no-ext-diff", "--no-textconv"],
  show: ["--no-ext-diff", "--no-textconv"],
  log: ["--no-ext-diff", "--no-textconv"],
};

/**
 * Subcommands that only read objects and config: they never pass work-tree files through a filter
 * or merge anything, and `log` diffs only with the drivers that `--no-ext-diff --no-textconv` turn
 * off. They need no listing of the configured drivers first, which would double their cost.
 */
const driverFreeSubcommands: ReadonlySet<string> = new Set(["config", "log", "rev-parse"]);

export function runsNoDriver(subcommand: string): boolean {
  return driverFreeSubcommands.has(subcommand);
}

export function protectiveOptions(subcommand: string): readonly string[] {
  return Object.hasOwn(subcommandOptions, subcommand) ? (subcommandOptions[subcommand] ?? []) : [];
}

/**
 * Variables that would start a program or prompt; every other `GIT_*` variable is dropped as well,
 * since they point git at another repository, index, object store or config.
 */
const droppedVariables: ReadonlySet<string> = new Set(["SSH_ASKPASS"]);

/** The caller's environment without any `GIT_*` variable, with prompts, pagers and transports off. */
export function protectedEnvironment(inherited: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = Object.entries(inherited).filter(
    ([name]) => !name.toUpperCase().startsWith("GIT_") && !droppedVariables.has(name.toUpperCase()),
  );
  return {
    ...Object.fromEntries(kept),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_EDITOR: ":",
    // An allow-list with no protocol in it: outranks any `protocol.<name>.allow` a config sets.
    GIT_ALLOW_PROTOCOL: "",
    GIT_NO_LAZY_FETCH: "1",
    // Messages in English: callers recognise some of them.
    LC_ALL: "C",
  };
}

/**
 * Settings as git reads them from the environment (`GIT_CONFIG_COUNT`): they outrank every config
 * file, like `-c`, without `-c`'s split at the first `=`.
 */
export function settingsEnvironment(settings: readonly GitSetting[]): Record<string, string> {
  const variables: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([name, value], index) => {
    variables[`GIT_CONFIG_KEY_${index}`] = name;
    variables[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return variables;
}
