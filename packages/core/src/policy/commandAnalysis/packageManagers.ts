import { hasOption, parseArgs, splitSubcommand } from "./commandArgs.js";
import type { CommandJudge } from "./judgeContext.js";
import { nodePackageManagerJudges } from "./nodePackageManagers.js";
import {
  globalInstall,
  projectInstall,
  publishes,
  queriesRegistry,
  readsInfo,
  runsScript,
} from "./packageVerdicts.js";
import { verdict } from "./verdict.js";

/** pip (also `python -m pip`, `uv pip`): installs into whatever environment is active. */
export const judgePip: CommandJudge = (args, _ctx, name) => {
  const { name: sub, before, rest } = splitSubcommand(args);
  if (sub === undefined)
    return hasOption(before, "V", "version")
      ? verdict("safe", `${name} --version`, true)
      : verdict("medium", name);
  const parsed = parseArgs(rest, {
    shortWithValue: "rcet",
    longWithValue: ["requirement", "constraint", "editable", "target", "index-url", "prefix", "root"],
  });
  if (sub === "install" || sub === "download") {
    if (
      hasOption(parsed, undefined, "break-system-packages") ||
      hasOption(parsed, undefined, "target") ||
      hasOption(parsed, undefined, "prefix") ||
      hasOption(parsed, undefined, "root")
    ) {
      return globalInstall(`${name} ${sub}`);
    }
    return projectInstall(`${name} ${sub}`);
  }
  if (sub === "uninstall") return verdict("medium", `${name} uninstall removes packages`);
  if (["list", "show", "freeze", "check", "help", "inspect", "debug"].includes(sub))
    return readsInfo(`${name} ${sub}`);
  if (sub === "search" || sub === "index") return queriesRegistry(`${name} ${sub}`);
  if (sub === "config" && ["list", "get", "debug"].includes(rest[0]?.value ?? ""))
    return readsInfo(`${name} config`);
  return verdict("medium", `${name} ${sub}`);
};

const judgeUv: CommandJudge = (args, ctx) => {
  const { name: sub, rest } = splitSubcommand(args);
  if (sub === "pip") return judgePip(rest, ctx, "uv pip");
  if (sub === undefined) return verdict("medium", "uv");
  if (["sync", "add", "remove", "lock", "venv", "init"].includes(sub)) return projectInstall(`uv ${sub}`);
  if (sub === "run") return runsScript("uv run");
  if (sub === "tool" || sub === "python" || sub === "self") return globalInstall(`uv ${sub}`);
  if (sub === "tree" || sub === "version" || sub === "help") return readsInfo(`uv ${sub}`);
  return verdict("medium", `uv ${sub}`);
};

/** Managers that install into the system or the user's environment: everything but queries is high. */
function systemManagerJudge(readers: readonly string[], installers: readonly string[]): CommandJudge {
  return (args, _ctx, name) => {
    const { name: sub, before } = splitSubcommand(args, {
      shortWithValue: "oc",
      longWithValue: ["option", "config"],
    });
    if (name === "pacman" || name === "yay") {
      const query = before.options.some((o) => !o.long && (o.name === "Q" || o.name === "F"));
      if (query) return readsInfo(`${name} -Q`);
      return globalInstall(name);
    }
    if (sub === undefined)
      return hasOption(before, "v", "version")
        ? readsInfo(name)
        : verdict("high", `${name} changes system packages`);
    if (readers.includes(sub)) return readsInfo(`${name} ${sub}`);
    if (installers.includes(sub)) return globalInstall(`${name} ${sub}`);
    return verdict("high", `${name} ${sub} changes system packages`);
  };
}

const systemManagerReaders = [
  "list",
  "search",
  "show",
  "info",
  "policy",
  "depends",
  "rdepends",
  "madison",
  "showpkg",
  "list-installed",
  "leaves",
  "deps",
  "outdated",
  "doctor",
  "config",
  "--version",
  "help",
];
const systemManagerInstallers = [
  "install",
  "reinstall",
  "update",
  "upgrade",
  "full-upgrade",
  "dist-upgrade",
  "add",
  "tap",
  "fetch",
  "download",
  "source",
  "build-dep",
  "refresh",
  "sync",
];

const judgeDpkg: CommandJudge = (args) => {
  const parsed = parseArgs(args);
  const reads = parsed.options.some((o) =>
    o.long
      ? ["list", "listfiles", "status", "search", "print-architecture", "get-selections"].includes(o.name)
      : "lLsSp".includes(o.name),
  );
  return reads ? readsInfo("dpkg") : verdict("high", "dpkg changes system packages");
};

const judgeCargo: CommandJudge = (args) => {
  const { name: sub, before } = splitSubcommand(args, {
    shortWithValue: "Z",
    longWithValue: ["config", "color", "manifest-path"],
  });
  if (sub === undefined)
    return hasOption(before, "V", "version")
      ? verdict("safe", "cargo --version", true)
      : verdict("medium", "cargo");
  if (sub === "install") return globalInstall("cargo install");
  if (["add", "remove", "rm", "update", "fetch", "generate-lockfile", "vendor"].includes(sub))
    return projectInstall(`cargo ${sub}`);
  if (
    [
      "build",
      "b",
      "check",
      "c",
      "test",
      "t",
      "run",
      "r",
      "clippy",
      "fmt",
      "doc",
      "d",
      "bench",
      "metadata",
      "tree",
      "expand",
      "nextest",
    ].includes(sub)
  ) {
    return runsScript(`cargo ${sub}`);
  }
  if (sub === "search" || sub === "info") return queriesRegistry(`cargo ${sub}`);
  if (["publish", "yank", "owner", "login"].includes(sub)) return publishes(`cargo ${sub}`);
  if (sub === "uninstall") return verdict("high", "cargo uninstall removes installed binaries");
  return verdict("medium", `cargo ${sub}`);
};

const judgeGo: CommandJudge = (args) => {
  const { name: sub, rest } = splitSubcommand(args);
  if (sub === undefined) return verdict("medium", "go");
  if (sub === "install") return globalInstall("go install");
  if (sub === "get") return projectInstall("go get");
  if (sub === "mod") {
    const action = rest[0]?.value;
    if (action === "graph" || action === "why" || action === "verify" || action === "edit")
      return readsInfo("go mod");
    return projectInstall(`go mod ${action ?? ""}`.trim());
  }
  if (["build", "test", "vet", "run", "fmt", "list", "doc", "tool"].includes(sub))
    return runsScript(`go ${sub}`);
  if (sub === "version" || (sub === "env" && !rest.some((w) => w.value === "-w" || w.value === "-u")))
    return verdict("safe", `go ${sub}`, true);
  if (sub === "generate") return verdict("medium", "go generate runs generator commands");
  return verdict("medium", `go ${sub}`);
};

const judgeGem: CommandJudge = (args) => {
  const { name: sub } = splitSubcommand(args);
  if (sub === "list" || sub === "info" || sub === "contents" || sub === "env" || sub === "which")
    return readsInfo(`gem ${sub}`);
  if (sub === "search") return queriesRegistry("gem search");
  if (sub === "push" || sub === "yank") return publishes(`gem ${sub}`);
  if (sub === "install" || sub === "update") return globalInstall(`gem ${sub}`);
  return verdict("high", `gem ${sub ?? ""} changes installed gems`.replace("  ", " "));
};

const judgeBundle: CommandJudge = (args) => {
  const { name: sub } = splitSubcommand(args);
  if (sub === undefined || ["install", "update", "add", "lock", "outdated"].includes(sub))
    return projectInstall(`bundle ${sub ?? "install"}`);
  if (sub === "exec") return runsScript("bundle exec");
  if (sub === "list" || sub === "show" || sub === "info") return readsInfo(`bundle ${sub}`);
  return verdict("medium", `bundle ${sub}`);
};

const judgeComposer: CommandJudge = (args) => {
  const { name: sub } = splitSubcommand(args);
  if (sub === "global") return globalInstall("composer global");
  if (sub === undefined || ["install", "update", "require", "remove", "create-project"].includes(sub))
    return projectInstall(`composer ${sub ?? "install"}`);
  if (sub === "run-script" || sub === "run" || sub === "test") return runsScript(`composer ${sub}`);
  if (sub === "show" || sub === "info" || sub === "validate") return readsInfo(`composer ${sub}`);
  return verdict("medium", `composer ${sub}`);
};

/** Tools that manage environments or toolchains for the whole user account. */
const judgeUserEnvironment: CommandJudge = (args, _ctx, name) => {
  const { name: sub } = splitSubcommand(args);
  if (sub !== undefined && ["list", "show", "info", "which", "env", "--version"].includes(sub))
    return readsInfo(`${name} ${sub}`);
  if (name === "poetry" || name === "pipenv") {
    if (sub === "run" || sub === "shell") return runsScript(`${name} ${sub}`);
    return projectInstall(`${name} ${sub ?? ""}`.trim());
  }
  return globalInstall(`${name} ${sub ?? ""}`.trim());
};

export const packageManagerJudges: Readonly<Record<string, CommandJudge>> = {
  ...nodePackageManagerJudges,
  pip: judgePip,
  pip3: judgePip,
  uv: judgeUv,
  pipx: judgeUserEnvironment,
  poetry: judgeUserEnvironment,
  pipenv: judgeUserEnvironment,
  conda: judgeUserEnvironment,
  mamba: judgeUserEnvironment,
  micromamba: judgeUserEnvironment,
  rustup: judgeUserEnvironment,
  apt: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  "apt-get": systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  "apt-cache": systemManagerJudge(
    ["search", "show", "policy", "depends", "rdepends", "madison", "showpkg", "pkgnames", "stats"],
    [],
  ),
  aptitude: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  yum: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  dnf: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  zypper: systemManagerJudge(systemManagerReaders, [...systemManagerInstallers, "in"]),
  apk: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  snap: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  brew: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  port: systemManagerJudge(systemManagerReaders, systemManagerInstallers),
  pacman: systemManagerJudge([], []),
  yay: systemManagerJudge([], []),
  dpkg: judgeDpkg,
  cargo: judgeCargo,
  go: judgeGo,
  gem: judgeGem,
  bundle: judgeBundle,
  bundler: judgeBundle,
  composer: judgeComposer,
};
