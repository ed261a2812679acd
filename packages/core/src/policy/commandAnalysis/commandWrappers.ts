import { hasOption, optionValues, parseArgs, staticWord } from "./commandArgs.js";
import { judgeAssignmentWords } from "./environmentAssignments.js";
import type { JudgeContext } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { combineVerdicts, safeReadOnly, type Verdict, verdict } from "./verdict.js";

/**
 * What a wrapper command (`sudo`, `env`, `timeout`, `xargs`…) amounts to: the command it runs
 * (judged like any other), possibly with a minimum risk of its own, or a verdict of its own when
 * it runs nothing.
 */
export type Unwrapped =
  | {
      kind: "run";
      /** Each command line the wrapper runs (xargs with known input may run several). */
      argvs: StaticWord[][];
      /** The wrapper's own risk, which the inner command's cannot lower (sudo: high). */
      floor?: Verdict;
      /** `exec` replaces the shell, so an unknown inner command is high, not medium. */
      replacesShell?: boolean;
      /** xargs appends arguments from a stdin we cannot see. */
      argsFromStdin?: boolean;
    }
  | {
      kind: "script";
      script: StaticWord;
      /** How the wrapper runs it, for reasons (`su -c`, `watch`). */
      what: string;
      floor?: Verdict;
    }
  | { kind: "done"; verdict: Verdict };

type Unwrapper = (args: readonly StaticWord[], ctx: JudgeContext, name: string) => Unwrapped;

const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Drops leading `NAME=value` words (`sudo FOO=1 cmd`, `env A=b cmd`). */
function withoutAssignments(words: readonly StaticWord[]): StaticWord[] {
  const first = words.findIndex((w) => w.dynamic || !assignment.test(w.value));
  return first === -1 ? [] : words.slice(first);
}

function run(argv: StaticWord[], floor?: Verdict): Unwrapped {
  return floor ? { kind: "run", argvs: [argv], floor } : { kind: "run", argvs: [argv] };
}

/** The operands after POSIX-style options (options end at the first operand). */
function afterOptions(
  args: readonly StaticWord[],
  shortWithValue: string,
  longWithValue: readonly string[] = [],
) {
  const parsed = parseArgs(args, { shortWithValue, longWithValue, stopAtOperand: true });
  return { parsed, rest: parsed.operands };
}

const asRoot = (name: string): Verdict => verdict("high", `${name} runs a command as another user`);

const unwrapSudo: Unwrapper = (args, ctx, name) => {
  const { parsed, rest } = afterOptions(args, "ugpCDrtUTh", [
    "user",
    "group",
    "prompt",
    "close-from",
    "chdir",
    "role",
    "type",
    "other-user",
    "command-timeout",
    "host",
  ]);
  const command = withoutAssignments(rest);
  const assigned = judgeAssignmentWords(rest.slice(0, rest.length - command.length), ctx);
  if (hasOption(parsed, "e", "edit"))
    return { kind: "done", verdict: verdict("high", `${name} -e edits files as root`) };
  if (command.length === 0) {
    if (hasOption(parsed, "si", "shell") || hasOption(parsed, undefined, "login")) {
      return { kind: "done", verdict: verdict("high", `${name} starts a root shell`) };
    }
    return { kind: "done", verdict: verdict("low", `${name} only manages its credentials`, true) };
  }
  return run(command, combineVerdicts([asRoot(name), ...assigned]));
};

const unwrapDoas: Unwrapper = (args, _ctx, name) => {
  const { rest } = afterOptions(args, "uC");
  return rest.length === 0
    ? { kind: "done", verdict: verdict("high", `${name} starts a root shell`) }
    : run(rest, asRoot(name));
};

const unwrapSu: Unwrapper = (args, _ctx, name) => {
  const parsed = parseArgs(args, {
    shortWithValue: "csgGw",
    longWithValue: ["command", "shell", "group", "supp-group", "whitelist-environment"],
  });
  const command = optionValues(parsed, "c", "command")[0];
  if (command) return { kind: "script", script: command, what: `${name} -c`, floor: asRoot(name) };
  return { kind: "done", verdict: verdict("high", `${name} starts a shell as another user`) };
};

/** env [options] [NAME=VALUE]... [COMMAND]; `env` alone prints the environment. */
const unwrapEnv: Unwrapper = (args, ctx) => {
  const { parsed, rest } = afterOptions(args, "uCS", [
    "unset",
    "chdir",
    "split-string",
    "block-signal",
    "default-signal",
    "ignore-signal",
  ]);
  const split = optionValues(parsed, "S", "split-string")[0];
  if (split) return { kind: "script", script: split, what: "env -S" };
  const command = withoutAssignments(rest);
  const assigned = judgeAssignmentWords(rest.slice(0, rest.length - command.length), ctx);
  if (command.length === 0) return { kind: "done", verdict: safeReadOnly("env prints the environment") };
  return assigned.length === 0 ? run(command) : run(command, combineVerdicts(assigned));
};

/** Wrappers that only adjust how the command runs: priority, time limit, buffering, session. */
function plainWrapper(
  shortWithValue: string,
  longWithValue: readonly string[],
  leadingOperands = 0,
): Unwrapper {
  return (args, _ctx, name) => {
    const { rest } = afterOptions(args, shortWithValue, longWithValue);
    const command = rest.slice(leadingOperands);
    if (command.length === 0) return { kind: "done", verdict: safeReadOnly(`${name} with nothing to run`) };
    return run(command);
  };
}

/** `nice -10 cmd` is an old spelling of `nice -n 10 cmd`. */
const unwrapNice: Unwrapper = (args, ctx, name) => {
  const first = args[0];
  const rest = first && /^-\d+$/.test(first.value) ? args.slice(1) : args;
  return plainWrapper("n", ["adjustment"])(rest, ctx, name);
};

/** `command -v x` looks a command up; `command x` runs it bypassing functions. */
const unwrapCommand: Unwrapper = (args) => {
  const { parsed, rest } = afterOptions(args, "");
  if (hasOption(parsed, "vV"))
    return { kind: "done", verdict: safeReadOnly("command -v only looks a command up") };
  return rest.length === 0
    ? { kind: "done", verdict: safeReadOnly("command with nothing to run") }
    : run(rest);
};

/** `exec cmd` replaces the shell; `exec >log` (no command) only redirects, judged separately. */
const unwrapExec: Unwrapper = (args) => {
  const { rest } = afterOptions(args, "a");
  if (rest.length === 0) return { kind: "done", verdict: safeReadOnly("exec only changes redirections") };
  return { kind: "run", argvs: [rest], replacesShell: true };
};

/** `time -o FILE cmd` writes its report to FILE. */
const unwrapTime: Unwrapper = (args, _ctx, name) => {
  const { parsed, rest } = afterOptions(args, "fo", ["format", "output"]);
  const unwrapped =
    rest.length === 0
      ? ({ kind: "done", verdict: safeReadOnly(`${name} with nothing to run`) } as const)
      : run(rest);
  if (optionValues(parsed, "o", "output").length > 0 && unwrapped.kind === "run") {
    return { ...unwrapped, floor: verdict("medium", `${name} -o writes a report file`) };
  }
  return unwrapped;
};

/** `watch cmd args` runs `sh -c "cmd args"`; `watch -x` runs the words directly. */
const unwrapWatch: Unwrapper = (args) => {
  const { parsed, rest } = afterOptions(args, "nq", ["interval", "equexit"]);
  if (rest.length === 0) return { kind: "done", verdict: safeReadOnly("watch with nothing to run") };
  if (hasOption(parsed, "x", "exec")) return run(rest);
  return {
    kind: "script",
    what: "watch",
    script: {
      value: rest.map((w) => w.value).join(" "),
      dynamic: rest.some((w) => w.dynamic),
      fromDownload: rest.some((w) => w.fromDownload),
    },
  };
};

const unwrapChroot: Unwrapper = (args, _ctx, name) => {
  const { rest } = afterOptions(args, "", ["userspec", "groups"]);
  const command = rest.slice(1);
  const floor = verdict("high", `${name} runs a command in another root`);
  return command.length === 0 ? { kind: "done", verdict: floor } : run(command, floor);
};

/** `busybox rm -rf /` is `rm -rf /`. */
const unwrapBusybox: Unwrapper = (args) =>
  args.length === 0 ? { kind: "done", verdict: safeReadOnly("busybox lists its applets") } : run([...args]);

/** More items than this from a static stdin are not worth judging one command at a time. */
const maxXargsItems = 16;

/**
 * `xargs cmd`: the command gets stdin's words as extra arguments. When stdin is static
 * (`echo / | xargs rm -rf`) they are added for real; otherwise the command is judged knowing its
 * arguments come from somewhere we cannot see.
 */
const unwrapXargs: Unwrapper = (args, ctx) => {
  const { parsed, rest } = afterOptions(args, "adEILnPs", [
    "arg-file",
    "delimiter",
    "eof",
    "replace",
    "max-lines",
    "max-args",
    "max-procs",
    "max-chars",
    "process-slot-var",
  ]);
  const command = rest.length > 0 ? [...rest] : [staticWord("echo")];
  const replace =
    optionValues(parsed, "I", "replace")[0]?.value ?? (hasOption(parsed, "i") ? "{}" : undefined);
  const text = optionValues(parsed, "a", "arg-file").length > 0 ? undefined : ctx.stdin.text;
  if (text === undefined) return { kind: "run", argvs: [command], argsFromStdin: true };
  const items = text
    .split(/\s+/)
    .filter((item) => item !== "")
    .slice(0, maxXargsItems);
  if (replace === undefined) return run([...command, ...items.map(staticWord)]);
  return {
    kind: "run",
    argvs: items.map((item) =>
      command.map((w) => (w.dynamic ? w : { ...w, value: w.value.replaceAll(replace, item) })),
    ),
  };
};

const runsAnother = (name: string): Verdict => verdict("high", `${name} runs another command`);

/**
 * Wrappers that start another command under changed conditions (CPU set, lock, namespace, tracer,
 * user, limits): the command is judged as itself, and the wrapper is at least high, because what
 * it changes (a namespace, a tracer, a user) the analysis cannot follow. Without a command most
 * start a shell.
 */
function launcher(
  shortWithValue: string,
  longWithValue: readonly string[],
  options: { leadingOperands?: number; script?: { short: string; long?: string } } = {},
): Unwrapper {
  return (args, ctx, name) => {
    const parsed = parseArgs(args, { shortWithValue, longWithValue, stopAtOperand: true });
    const floor = runsAnother(name);
    if (options.script) {
      const script = optionValues(parsed, options.script.short, options.script.long)[0];
      if (script) return { kind: "script", script, what: `${name} -${options.script.short}`, floor };
    }
    const command = withoutAssignments(parsed.operands.slice(options.leadingOperands ?? 0));
    if (command.length === 0)
      return { kind: "done", verdict: verdict("high", `${name} starts a shell or a program we cannot see`) };
    const assigned = judgeAssignmentWords(
      parsed.operands.slice(0, parsed.operands.length - command.length),
      ctx,
    );
    return run(command, combineVerdicts([floor, ...assigned]));
  };
}

/** `taskset MASK cmd`, `taskset -c LIST cmd`; `taskset -p …` changes a running process. */
const unwrapTaskset: Unwrapper = (args, ctx, name) => {
  const parsed = parseArgs(args, { stopAtOperand: true });
  if (hasOption(parsed, "p", "pid"))
    return { kind: "done", verdict: verdict("medium", `${name} -p changes a process's CPUs`) };
  return launcher("", [], { leadingOperands: 1 })(args, ctx, name);
};

/**
 * `parallel CMD ::: ITEMS`: the command (a script when it is one quoted word) runs once per item,
 * with `{}` replaced by it or the item appended.
 */
const unwrapParallel: Unwrapper = (args, _ctx, name) => {
  const parsed = parseArgs(args, {
    shortWithValue: "jSaIdnNLsE",
    longWithValue: [
      "jobs",
      "sshlogin",
      "arg-file",
      "replace",
      "delimiter",
      "max-args",
      "timeout",
      "results",
      "joblog",
      "workdir",
      "tmpdir",
    ],
    stopAtOperand: true,
  });
  const separator = parsed.operands.findIndex((w) => /^:::+\+?$/.test(w.value));
  const command = separator === -1 ? parsed.operands : parsed.operands.slice(0, separator);
  const items =
    separator === -1 ? [] : parsed.operands.slice(separator + 1).filter((w) => !/^:::+\+?$/.test(w.value));
  const floor = runsAnother(name);
  if (command.length === 0)
    return { kind: "done", verdict: verdict("high", `${name} runs commands read from stdin`) };
  const forItem = (item: StaticWord | undefined): StaticWord[] => {
    if (item === undefined) return command;
    const replaced = command.map((w) =>
      w.dynamic || !w.value.includes("{}") ? w : { ...w, value: w.value.replaceAll("{}", item.value) },
    );
    return command.some((w) => w.value.includes("{}")) ? replaced : [...command, item];
  };
  const lines = (items.length === 0 ? [undefined] : items.slice(0, maxXargsItems)).map(forItem);
  const [only] = command;
  if (command.length === 1 && only !== undefined && /\s/.test(only.value)) {
    const script = lines.map((line) => line.map((w) => w.value).join(" ")).join("\n");
    return {
      kind: "script",
      what: name,
      floor,
      script: { value: script, dynamic: lines.some((l) => l.some((w) => w.dynamic)), fromDownload: false },
    };
  }
  return { kind: "run", argvs: lines, floor };
};

export const commandWrappers: Readonly<Record<string, Unwrapper>> = {
  taskset: unwrapTaskset,
  parallel: unwrapParallel,
  flock: launcher("wEc", ["wait", "timeout", "conflict-exit-code", "command"], {
    leadingOperands: 1,
    script: { short: "c", long: "command" },
  }),
  script: launcher(
    "cOIBTo",
    ["command", "log-out", "log-in", "log-io", "log-timing", "output-limit", "logging-format"],
    { script: { short: "c", long: "command" } },
  ),
  unshare: launcher("SGRwC", [
    "setuid",
    "setgid",
    "root",
    "wd",
    "propagation",
    "map-user",
    "map-group",
    "map-users",
    "map-groups",
    "kill-child",
    "monotonic",
    "boottime",
  ]),
  nsenter: launcher("tSGrwTUe", ["target", "setuid", "setgid", "root", "wd", "env"]),
  strace: launcher("eoOpsuaEPbIXS", ["output", "trace", "signal", "attach", "user", "env", "trace-path"]),
  ltrace: launcher("eoOpsuaEn", ["output", "library"]),
  chrt: launcher("T", ["sched-runtime", "sched-period", "sched-deadline"], { leadingOperands: 1 }),
  numactl: launcher("CNmpiP", [
    "physcpubind",
    "cpunodebind",
    "membind",
    "preferred",
    "interleave",
    "localalloc",
  ]),
  prlimit: launcher("p", ["pid"]),
  setpriv: launcher("", [
    "reuid",
    "regid",
    "groups",
    "inh-caps",
    "ambient-caps",
    "bounding-set",
    "securebits",
    "selinux-label",
    "apparmor-profile",
    "landlock-access",
    "landlock-rule",
  ]),
  runuser: launcher("ugGcsl", ["user", "group", "supp-group", "command", "shell", "login"], {
    script: { short: "c", long: "command" },
  }),
  sg: launcher("c", [], { leadingOperands: 1, script: { short: "c" } }),
  cgexec: launcher("g", []),
  firejail: launcher("", []),
  fakeroot: launcher("sil", ["lib", "faked"]),
  proot: launcher("rbwqk", ["rootfs", "bind", "cwd", "qemu", "kernel-release"]),
  valgrind: launcher("", []),
  "xvfb-run": launcher("nspfe", ["server-num", "server-args", "xauth-protocol", "auth-file", "error-file"]),
  "dbus-run-session": launcher("", ["config-file", "dbus-daemon"]),
  faketime: launcher("f", [], { leadingOperands: 1 }),
  torsocks: launcher("uapP", ["user", "pass", "address", "port"]),
  proxychains: launcher("f", []),
  proxychains4: launcher("f", []),
  unbuffer: launcher("", []),
  rlwrap: launcher("aAbcCDfFgHlopPqsSw", []),
  caffeinate: launcher("tw", []),
  catchsegv: launcher("", []),
  "systemd-run": launcher("pEuMHGd", [
    "unit",
    "property",
    "description",
    "slice",
    "uid",
    "gid",
    "setenv",
    "working-directory",
    "machine",
    "host",
  ]),
  sudo: unwrapSudo,
  doas: unwrapDoas,
  su: unwrapSu,
  env: unwrapEnv,
  nice: unwrapNice,
  nohup: plainWrapper("", []),
  setsid: plainWrapper("", []),
  builtin: plainWrapper("", []),
  stdbuf: plainWrapper("ioe", ["input", "output", "error"]),
  ionice: plainWrapper("cnp", ["class", "classdata", "pid"]),
  timeout: plainWrapper("sk", ["signal", "kill-after"], 1),
  command: unwrapCommand,
  exec: unwrapExec,
  time: unwrapTime,
  watch: unwrapWatch,
  chroot: unwrapChroot,
  busybox: unwrapBusybox,
  xargs: unwrapXargs,
};
