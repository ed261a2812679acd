// Security (SPEC §10): every must-block case of the three corpora blocked (target 100%), known
// safe commands asking for approval under the default mode (target < 5%), and time per decision.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  analyzeCommand,
  builtinTools,
  checkUrl,
  decidePolicy,
  isSensitivePath,
  resolveProjectPath,
} from "../../packages/core/dist/index.js";
import { pathOutcome } from "./pathBed.mjs";

const corpus = (name) =>
  JSON.parse(
    readFileSync(new URL(`../../packages/core/test/policy/corpora/${name}.json`, import.meta.url), "utf8"),
  );

export async function run() {
  const commands = corpus("commands");
  const paths = corpus("paths").cases;
  const urls = corpus("urls");

  const mustBlockCommands = commands.filter((c) => c.expect.blocked);
  let commandsBlocked = 0;
  for (const c of mustBlockCommands) if ((await analyzeCommand(c.command)).block) commandsBlocked++;

  const bases = [];
  const mustBlockPaths = paths.filter(
    (c) => c.expect === "E_PATH_TRAVERSAL" || c.expect === "E_SECURITY_BLOCKED",
  );
  let pathsBlocked = 0;
  for (const c of mustBlockPaths) {
    const outcome = await pathOutcome(c, { resolveProjectPath, isSensitivePath }, bases);
    if (outcome === "E_PATH_TRAVERSAL" || outcome === "E_SECURITY_BLOCKED") pathsBlocked++;
  }
  for (const base of bases) rmSync(base, { recursive: true, force: true });

  const mustBlockUrls = urls.filter((c) => c.expect === "blocked");
  let urlsBlocked = 0;
  for (const c of mustBlockUrls) {
    const table = c.resolvesTo ?? [];
    const resolve = async () => table.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    const checked = await checkUrl(c.url, { ...(c.options ?? {}), resolve });
    if (!checked.ok) urlsBlocked++;
  }

  // Everyday read-only commands through the whole policy, in the default approval mode.
  const shell = builtinTools().find((tool) => tool.name === "run_terminal_cmd");
  const projectRoot = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-bench-security-")));
  const safe = commands.filter((c) => c.category === "readOnly" || c.expect.risk === "safe");
  let asked = 0;
  const times = [];
  const timedDecision = async (command) => {
    const started = performance.now();
    const decision = await decidePolicy({
      tool: shell,
      args: { command },
      projectRoot,
      approvalMode: "ask_first",
      rules: [],
      latheHome: projectRoot,
    });
    times.push(performance.now() - started);
    return decision;
  };
  for (const c of safe) {
    const decision = await timedDecision(c.command);
    if (decision.decision !== "allow") asked++;
  }
  for (let round = 0; round < 5; round++) {
    for (const c of commands) {
      await timedDecision(c.command);
    }
  }
  rmSync(projectRoot, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const pct = (n, d) => Math.round((1000 * n) / d) / 10;
  const blocked = commandsBlocked + pathsBlocked + urlsBlocked;
  const mustBlock = mustBlockCommands.length + mustBlockPaths.length + mustBlockUrls.length;
  return [
    { metric: "must-block cases blocked", value: pct(blocked, mustBlock), unit: "%", target: "100" },
    { metric: "  commands", value: `${commandsBlocked} / ${mustBlockCommands.length}`, unit: "cases" },
    { metric: "  paths", value: `${pathsBlocked} / ${mustBlockPaths.length}`, unit: "cases" },
    { metric: "  URLs", value: `${urlsBlocked} / ${mustBlockUrls.length}`, unit: "cases" },
    {
      metric: "known-safe commands asking (ask_first)",
      value: pct(asked, safe.length),
      unit: "%",
      target: "< 5",
    },
    { metric: "  of", value: safe.length, unit: "commands" },
    { metric: "policy decision p50", value: Math.round(at(0.5) * 1000) / 1000, unit: "ms" },
    { metric: "policy decision p95", value: Math.round(at(0.95) * 1000) / 1000, unit: "ms" },
  ];
}
