import { hasOption, parseArgs, splitSubcommand } from "./commandArgs.js";
import { judgeDeletionTargets } from "./deletionTargets.js";
import type { CommandJudge } from "./judgeContext.js";
import { classifyTarget, isDiskDevice } from "./pathClasses.js";
import { blocked, combineVerdicts, type Verdict, verdict } from "./verdict.js";

const judgeRm: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args);
  const recursive = hasOption(parsed, "rR", "recursive") ? true : parsed.dynamicWords ? "maybe" : false;
  const targets = parsed.operands.filter((w) => !(w.dynamic && w.value.startsWith("-")));
  return judgeDeletionTargets(
    targets,
    { recursive, label: recursive === true ? "rm -r" : "rm", blocks: true },
    ctx,
  );
};

const judgeRemoveSingle: CommandJudge = (args, ctx, name) =>
  judgeDeletionTargets(parseArgs(args).operands, { recursive: false, label: name, blocks: true }, ctx);

/** Overwrites files (and deletes them with -u); a whole disk is blocked. */
const judgeShred: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, {
    shortWithValue: "ns",
    longWithValue: ["iterations", "size", "random-source"],
  });
  const disk = parsed.operands.find((w) => !w.dynamic && isDiskDevice(w.value));
  if (disk) return blocked(`shred ${disk.value}: destroys a disk`);
  return judgeDeletionTargets(parsed.operands, { recursive: false, label: "shred", blocks: true }, ctx);
};

/** `chmod`/`chown`/`chgrp`: recursive on the root is blocked (`chmod -R 777 /`). */
function permissionJudge(firstOperandIsSpec: boolean): CommandJudge {
  return (args, ctx, name) => {
    const parsed = parseArgs(args, { longWithValue: ["reference", "from"] });
    // chmod modes may look like options (`chmod -x file`); they are operands, not flags.
    const modeLike =
      name === "chmod" ? parsed.options.filter((o) => !o.long && !"cfvR".includes(o.name)) : [];
    const recursive = hasOption(parsed, "R", "recursive");
    const hasReference = hasOption(parsed, undefined, "reference");
    const operands =
      firstOperandIsSpec && !hasReference && modeLike.length === 0
        ? parsed.operands.slice(1)
        : parsed.operands;
    const label = recursive ? `${name} -R` : name;
    const verdicts: Verdict[] = [];
    for (const target of operands) {
      if (target.dynamic) {
        verdicts.push(verdict(recursive ? "high" : "medium", `${label} of a path computed at run time`));
        continue;
      }
      const cls = classifyTarget(target.value, ctx);
      if (recursive && (cls === "root" || cls === "rootGlob")) {
        verdicts.push(blocked(`${label} ${target.value}: changes every file on the machine`));
      } else if (cls === "projectRoot" || cls === "project" || cls === "temp" || cls === "unknown") {
        verdicts.push(verdict("medium", `${label} changes permissions or owners of ${target.value}`));
      } else {
        verdicts.push(verdict("high", `${label} ${target.value}: outside the project`));
      }
    }
    if (verdicts.length === 0) verdicts.push(verdict("medium", `${name} changes permissions or owners`));
    return combineVerdicts(verdicts);
  };
}

/** `dd of=/dev/sda` destroys a disk; any other dd is high (raw copies are easy to get wrong). */
const judgeDd: CommandJudge = (args) => {
  for (const w of args) {
    if (w.dynamic || !w.value.startsWith("of=")) continue;
    const target = w.value.slice(3);
    if (target.startsWith("/dev/") && isDiskDevice(target))
      return blocked(`dd of=${target}: overwrites a disk`);
  }
  return verdict("high", "dd copies raw data");
};

const judgeMkfs: CommandJudge = (_args, _ctx, name) => blocked(`${name} formats a filesystem`);

const judgeWipefs: CommandJudge = (args) => {
  const disk = args.find((w) => !w.dynamic && isDiskDevice(w.value));
  return disk
    ? blocked(`wipefs ${disk.value}: erases a disk's signatures`)
    : verdict("high", "wipefs erases signatures");
};

const judgeMkswap: CommandJudge = (args) => {
  const disk = args.find((w) => !w.dynamic && isDiskDevice(w.value));
  return disk
    ? blocked(`mkswap ${disk.value}: formats a disk`)
    : verdict("medium", "mkswap formats a swap file");
};

const judgePartitioner: CommandJudge = (args, _ctx, name) =>
  hasOption(parseArgs(args), "l", "list")
    ? verdict("low", `${name} -l lists partitions`, true)
    : verdict("high", `${name} changes disk partitions`);

const judgePower: CommandJudge = (_args, _ctx, name) => blocked(`${name} shuts down or restarts the machine`);

const judgeInit: CommandJudge = (args, _ctx, name) => {
  const level = args[0];
  if (level && !level.dynamic && ["0", "6"].includes(level.value)) {
    return blocked(`${name} ${level.value} shuts down or restarts the machine`);
  }
  return verdict("high", `${name} changes the run level`);
};

const systemctlReaders = new Set([
  "status",
  "show",
  "cat",
  "is-active",
  "is-enabled",
  "is-failed",
  "list-units",
  "list-unit-files",
  "list-timers",
  "list-sockets",
  "list-dependencies",
]);
const systemctlPower = new Set(["poweroff", "reboot", "halt", "kexec", "emergency", "rescue", "soft-reboot"]);

const judgeSystemctl: CommandJudge = (args) => {
  const { name: sub } = splitSubcommand(args, {
    shortWithValue: "tpHMns",
    longWithValue: ["type", "property", "host", "machine", "signal", "state"],
  });
  if (sub === undefined) return verdict("low", "systemctl lists units", true);
  if (systemctlPower.has(sub)) return blocked(`systemctl ${sub} shuts down or restarts the machine`);
  if (systemctlReaders.has(sub)) return verdict("low", `systemctl ${sub} only reads`, true);
  return verdict("high", `systemctl ${sub} changes system services`);
};

/** `kill -9 -1` signals every process the user owns; `kill 1` targets init. */
const judgeKill: CommandJudge = (args) => {
  const words = [...args];
  const first = words[0];
  if (first && !first.dynamic && ["-l", "-L", "--list", "--table"].includes(first.value)) {
    return verdict("safe", "kill -l lists signals", true);
  }
  if (first && !first.dynamic && first.value.startsWith("-") && first.value !== "--") {
    words.shift();
    if (["-s", "-n", "--signal"].includes(first.value)) words.shift();
  }
  if (words[0]?.value === "--") words.shift();
  const everything = words.find((w) => !w.dynamic && (w.value === "-1" || w.value === "1"));
  if (everything) return verdict("high", `kill ${everything.value} signals every process (or init)`);
  return verdict("medium", "kill stops processes");
};

const judgeKillByName: CommandJudge = (_args, _ctx, name) => verdict("medium", `${name} stops processes`);

const judgeMountLike: CommandJudge = (_args, _ctx, name) =>
  verdict("high", `${name} changes mounted filesystems`);

/** `crontab -l` lists; anything else schedules commands to run later, out of sight. */
const judgeCrontab: CommandJudge = (args) =>
  hasOption(parseArgs(args, { shortWithValue: "u" }), "l")
    ? verdict("low", "crontab -l lists scheduled jobs", true)
    : verdict("high", "crontab changes scheduled jobs");

/** Machine administration: accounts, firewall, kernel modules, swap, scheduled jobs. */
const judgeSystemAdmin: CommandJudge = (_args, _ctx, name) =>
  verdict("high", `${name} changes the system's configuration`);

const systemAdminTools = [
  "useradd",
  "userdel",
  "usermod",
  "adduser",
  "deluser",
  "groupadd",
  "groupdel",
  "passwd",
  "chpasswd",
  "visudo",
  "iptables",
  "ip6tables",
  "nft",
  "ufw",
  "modprobe",
  "insmod",
  "rmmod",
  "swapon",
  "swapoff",
  "sysctl",
  "launchctl",
  "chattr",
  "setfacl",
];

export const destructiveJudges: Readonly<Record<string, CommandJudge>> = {
  rm: judgeRm,
  rmdir: judgeRemoveSingle,
  unlink: judgeRemoveSingle,
  shred: judgeShred,
  chmod: permissionJudge(true),
  chown: permissionJudge(true),
  chgrp: permissionJudge(true),
  dd: judgeDd,
  mke2fs: judgeMkfs,
  mkswap: judgeMkswap,
  wipefs: judgeWipefs,
  fdisk: judgePartitioner,
  sfdisk: judgePartitioner,
  cfdisk: judgePartitioner,
  gdisk: judgePartitioner,
  sgdisk: judgePartitioner,
  parted: judgePartitioner,
  shutdown: judgePower,
  reboot: judgePower,
  halt: judgePower,
  poweroff: judgePower,
  init: judgeInit,
  telinit: judgeInit,
  systemctl: judgeSystemctl,
  kill: judgeKill,
  pkill: judgeKillByName,
  killall: judgeKillByName,
  mount: judgeMountLike,
  crontab: judgeCrontab,
  ...Object.fromEntries(systemAdminTools.map((name): [string, CommandJudge] => [name, judgeSystemAdmin])),
  umount: judgeMountLike,
};

/** `mkfs`, `mkfs.ext4`, `mkfs.vfat`…: every formatter is blocked. */
export function destructiveJudgeFor(name: string): CommandJudge | undefined {
  if (name === "mkfs" || name.startsWith("mkfs.")) return judgeMkfs;
  return Object.hasOwn(destructiveJudges, name) ? destructiveJudges[name] : undefined;
}
