import { hasOption, type ParsedArgs, parseArgs, splitSubcommand } from "./commandArgs.js";
import type { CommandJudge } from "./judgeContext.js";
import {
  globalInstall,
  projectInstall,
  publishes,
  queriesRegistry,
  readsInfo,
  runsScript,
} from "./packageVerdicts.js";
import type { StaticWord } from "./staticWords.js";
import { projectCode, type Verdict, verdict, withNetwork } from "./verdict.js";

const npmInstallAliases = new Set([
  "install",
  "i",
  "in",
  "ins",
  "inst",
  "insta",
  "instal",
  "isnt",
  "isntal",
  "isntall",
  "add",
  "ci",
  "clean-install",
  "install-clean",
  "isntall-clean",
  "ic",
  "it",
  "install-test",
  "cit",
  "clean-install-test",
  "update",
  "up",
  "upgrade",
  "udpate",
  "dedupe",
  "ddp",
  "rebuild",
  "rb",
]);
const npmScriptAliases = new Set([
  "run",
  "run-script",
  "rum",
  "urn",
  "test",
  "t",
  "tst",
  "start",
  "stop",
  "restart",
]);
const npmRemoveAliases = new Set(["uninstall", "remove", "rm", "r", "un", "unlink", "prune"]);
const npmReaders = new Set([
  "ls",
  "list",
  "ll",
  "la",
  "explain",
  "why",
  "prefix",
  "root",
  "bin",
  "help",
  "fund",
  "query",
  "get",
]);
const npmRegistryReaders = new Set([
  "view",
  "info",
  "show",
  "v",
  "outdated",
  "search",
  "s",
  "se",
  "find",
  "ping",
  "whoami",
  "doctor",
]);
const npmPublishers = new Set([
  "publish",
  "unpublish",
  "deprecate",
  "dist-tag",
  "owner",
  "access",
  "adduser",
  "login",
  "token",
  "team",
  "org",
]);

/** Dev tools that projects install locally, so `npx tsc` runs the project's copy. */
const localDevTools = new Set([
  "tsc",
  "tsx",
  "ts-node",
  "vitest",
  "jest",
  "mocha",
  "eslint",
  "prettier",
  "biome",
  "@biomejs/biome",
  "vite",
  "next",
  "turbo",
  "nx",
  "playwright",
  "webpack",
  "rollup",
  "esbuild",
  "tsup",
]);

function isGlobal(parsed: ParsedArgs): boolean {
  return (
    hasOption(parsed, "g", "global") ||
    parsed.options.some((o) => o.long && o.name === "location" && o.value?.value === "global")
  );
}

const npmOptions = {
  shortWithValue: "wC",
  longWithValue: ["workspace", "prefix", "loglevel", "registry", "cache", "userconfig"],
};

const judgeNpm: CommandJudge = (args) => {
  const { name: sub, before, rest } = splitSubcommand(args, npmOptions);
  const all = parseArgs(args, npmOptions);
  if (sub === undefined) {
    return hasOption(before, "v", "version")
      ? verdict("safe", "npm --version", true)
      : verdict("medium", "npm with no known subcommand");
  }
  if (npmInstallAliases.has(sub))
    return isGlobal(all) ? globalInstall(`npm ${sub} -g`) : projectInstall(`npm ${sub}`);
  if (npmScriptAliases.has(sub)) return runsScript(`npm ${sub}`);
  if (npmRemoveAliases.has(sub)) {
    return isGlobal(all)
      ? verdict("high", `npm ${sub} -g removes global packages`)
      : verdict("medium", `npm ${sub} removes project packages`);
  }
  if (npmReaders.has(sub)) return readsInfo(`npm ${sub}`);
  if (npmRegistryReaders.has(sub)) return queriesRegistry(`npm ${sub}`);
  if (npmPublishers.has(sub)) return publishes(`npm ${sub}`);
  if (sub === "exec" || sub === "x") return judgePackageRunner(rest, "npm exec");
  if (sub === "audit") {
    return rest[0]?.value === "fix" ? projectInstall("npm audit fix") : queriesRegistry("npm audit");
  }
  if (sub === "config" || sub === "c") {
    const action = rest[0]?.value;
    return action === "get" || action === "list" || action === "ls"
      ? readsInfo("npm config")
      : verdict("medium", "npm config changes settings");
  }
  if (sub === "version")
    return rest.length === 0 ? readsInfo("npm version") : verdict("medium", "npm version bumps the version");
  if (sub === "init" || sub === "create")
    return withNetwork(verdict("medium", `npm ${sub} creates a project`));
  return verdict("medium", `npm ${sub}`);
};

/** `npx pkg`, `npm exec pkg`, `pnpm dlx pkg`: a local dev tool is low, anything else may be downloaded. */
function judgePackageRunner(args: readonly StaticWord[], what: string): Verdict {
  const { name: tool } = splitSubcommand(args, { shortWithValue: "pc", longWithValue: ["package", "call"] });
  if (tool === undefined) return verdict("medium", `${what} runs a package`);
  if (localDevTools.has(tool)) return projectCode(`${what} ${tool} runs a project dev tool`);
  return withNetwork(verdict("medium", `${what} ${tool} runs a package that may be downloaded`));
}

const judgeNpx: CommandJudge = (args, _ctx, name) => judgePackageRunner(args, name);

/** pnpm, yarn and bun: like npm, and `yarn <name>` runs a script of that name. */
function nodeManagerJudge(manager: "pnpm" | "yarn" | "bun"): CommandJudge {
  return (args) => {
    const {
      name: sub,
      before,
      rest,
    } = splitSubcommand(args, { shortWithValue: "C", longWithValue: ["cwd", "filter", "dir"] });
    const all = parseArgs(args);
    if (sub === undefined) {
      if (hasOption(before, "v", "version")) return verdict("safe", `${manager} --version`, true);
      if (manager === "bun" && hasOption(before, "ep", "eval"))
        return verdict("high", "bun runs inline code");
      return manager === "yarn" ? projectInstall("yarn") : verdict("medium", manager);
    }
    if (sub === "global" && manager === "yarn") return globalInstall("yarn global");
    if (["install", "i", "add", "a", "update", "up", "upgrade", "ci"].includes(sub)) {
      if (manager === "bun" && sub === "upgrade")
        return withNetwork(verdict("high", "bun upgrade replaces bun itself"));
      return isGlobal(all) ? globalInstall(`${manager} ${sub} -g`) : projectInstall(`${manager} ${sub}`);
    }
    if (["remove", "rm", "uninstall", "un", "unlink", "prune"].includes(sub)) {
      return isGlobal(all)
        ? verdict("high", `${manager} ${sub} -g removes global packages`)
        : verdict("medium", `${manager} ${sub} removes project packages`);
    }
    if (sub === "dlx" || sub === "x") return judgePackageRunner(rest, `${manager} ${sub}`);
    if (sub === "exec") return judgePackageRunner(rest, `${manager} exec`);
    if (["publish", "npm", "login"].includes(sub)) return publishes(`${manager} ${sub}`);
    if (["list", "ls", "why", "info", "outdated", "audit", "view"].includes(sub)) {
      return ["outdated", "audit", "view", "info"].includes(sub)
        ? queriesRegistry(`${manager} ${sub}`)
        : readsInfo(`${manager} ${sub}`);
    }
    if (["run", "test", "start", "build", "lint", "dev", "typecheck", "format", "check"].includes(sub)) {
      return runsScript(`${manager} ${sub}`);
    }
    if (manager === "bun" && /\.[cm]?[jt]sx?$/.test(sub)) return runsScript(`bun ${sub}`);
    if (manager === "yarn") return runsScript(`yarn ${sub}`);
    return verdict("medium", `${manager} ${sub}`);
  };
}

export const nodePackageManagerJudges: Readonly<Record<string, CommandJudge>> = {
  npm: judgeNpm,
  npx: judgeNpx,
  pnpx: judgeNpx,
  bunx: judgeNpx,
  uvx: judgeNpx,
  pnpm: nodeManagerJudge("pnpm"),
  yarn: nodeManagerJudge("yarn"),
  bun: nodeManagerJudge("bun"),
};
