import type { CommandJudge } from "./judgeContext.js";
import { verdict, withNetwork } from "./verdict.js";

/** Tools that send or fetch data over the network, or open remote shells. */
const remoteTools = [
  "curl",
  "wget",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "ssh",
  "scp",
  "sftp",
  "ftp",
  "lftp",
  "telnet",
  "mosh",
  "ssh-copy-id",
  "aria2c",
  "http",
  "https",
  "xh",
  "curlie",
];

/** Tools that only look things up on the network. */
const lookupTools = ["ping", "ping6", "dig", "nslookup", "host", "traceroute", "tracepath", "whois", "mtr"];

/** Container and cluster tools: they run things outside the sandbox's reach. */
const containerTools = [
  "docker",
  "podman",
  "nerdctl",
  "docker-compose",
  "kubectl",
  "helm",
  "minikube",
  "kind",
];

/** Tools whose standard output is downloaded content (for `curl … | sh`). */
export const downloaders = new Set(["curl", "wget", "http", "https", "xh", "curlie", "fetch"]);

const judgeRemote: CommandJudge = (_args, _ctx, name) =>
  withNetwork(verdict("high", `${name} uses the network`));

const judgeLookup: CommandJudge = (_args, _ctx, name) =>
  withNetwork(verdict("medium", `${name} queries the network`));

const judgeContainer: CommandJudge = (args, _ctx, name) => {
  const sub = args.find((w) => !w.value.startsWith("-"))?.value;
  const network =
    sub !== undefined && ["pull", "push", "login", "search", "build", "run", "create", "apply"].includes(sub);
  const v = verdict("high", `${name} controls containers or clusters`);
  return network ? withNetwork(v) : v;
};

const judgeGh: CommandJudge = () => withNetwork(verdict("medium", "gh talks to GitHub"));

export const networkJudges: Readonly<Record<string, CommandJudge>> = {
  ...Object.fromEntries(remoteTools.map((name): [string, CommandJudge] => [name, judgeRemote])),
  ...Object.fromEntries(lookupTools.map((name): [string, CommandJudge] => [name, judgeLookup])),
  ...Object.fromEntries(containerTools.map((name): [string, CommandJudge] => [name, judgeContainer])),
  fetch: judgeRemote,
  gh: judgeGh,
};
