import { resolve } from "node:path";
import {
  checkWorkspaceTrust,
  grantWorkspaceTrust,
  readTrustRecord,
  revokeWorkspaceTrust,
  trustRecordPath,
  type WorkspaceTrust,
} from "@lathe/core";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { projectRootFrom } from "./projectRoot.js";
import { type CommandIo, parseSubcommand } from "./subcommandArgs.js";
import { gatedFilesText, trustReply } from "./trustReply.js";
import { loadUserSettings, type UserSettings } from "./userSettings.js";

export const trustUsage = `Usage: lathe trust [DIR] [options]

Project files that start programs or widen the policy take effect only in a folder you trust:
.lathe/hooks.json (every hook event), .lathe/mcp.json and .cursor/mcp.json (MCP servers), allow
rules in .lathe/settings.json and .lathe/settings.local.json, .lathe/agents/*.md,
.lathe/commands/*.md and .lathe/pipelines/*.md (cloud pipelines: their verify commands and agent
instructions). In a folder you have not trusted they are reported and ignored; deny and ask rules
always apply.

lathe trust [DIR] shows those files, what each would run or grant, and trusts them as they are
now (DIR defaults to the current directory). The trust is kept in $LATHE_HOME/trust.json under
the folder's real path; when any of the files is added, edited or removed, the folder must be
trusted again. In CI, "trustedFolders": ["/abs/path", …] or "trustAllFolders": true in
$LATHE_HOME/settings.json, or --trust on a run, do the same.

Options:
      --status               show the folder's files and whether they are trusted; change nothing
      --revoke               forget the trust of DIR
      --list                 the trusted folders, and whether their files changed since
      --json                 print JSON
  -h, --help                 this help
`;

const options = {
  status: { type: "boolean" },
  revoke: { type: "boolean" },
  list: { type: "boolean" },
} as const;

export async function runTrustCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "trust", trustUsage, options);
  if (!args.ok) return args.code;
  const { values, positionals } = args;
  const actions = [values.status, values.revoke, values.list].filter(Boolean).length;
  if (actions > 1) return args.misuse("give one of --status, --revoke and --list");
  if (positionals.length > 1) return args.misuse("give one folder");
  if (values.list && positionals.length > 0) return args.misuse("--list takes no folder");
  const latheHome = latheHomeFrom(io.env);
  const loaded = loadUserSettings(latheHome);
  if (!loaded.ok) {
    io.stderr(`lathe trust: ${loaded.message}\n`);
    return exitCodes.usage;
  }
  const json = values.json ?? false;
  if (values.list) return listTrust(io, latheHome, loaded.settings, json);
  const dir = positionals[0];
  if (values.revoke)
    return revoke(io, latheHome, dir === undefined ? args.projectRoot : resolve(io.cwd, dir), json);
  const folder =
    dir === undefined ? { ok: true as const, path: args.projectRoot } : projectRootFrom(resolve(io.cwd, dir));
  if (!folder.ok) return args.misuse(folder.error.message.replace("--cwd ", ""));
  const trust = checkWorkspaceTrust({ projectRoot: folder.path, latheHome, settings: loaded.settings });
  if (values.status) return show(io, trust, json);
  return grant(io, latheHome, trust, json);
}

function show(io: CommandIo, trust: WorkspaceTrust, json: boolean): number {
  const reply = trustReply(trust);
  if (json) {
    io.stdout(`${JSON.stringify(reply)}\n`);
    return exitCodes.completed;
  }
  io.stdout(`${statusLine(trust)}\n${gatedFilesText(reply)}`);
  if (reply.recordError) io.stderr(`lathe trust: ${reply.recordError}\n`);
  return exitCodes.completed;
}

async function grant(
  io: CommandIo,
  latheHome: string,
  trust: WorkspaceTrust,
  json: boolean,
): Promise<number> {
  // Nothing to trust, or trusted already: recording would change nothing.
  if (trust.status === "not_needed" || trust.status === "trusted") return show(io, trust, json);
  const granted = await grantWorkspaceTrust(latheHome, trust);
  if (!granted.ok) {
    io.stderr(`lathe trust: ${granted.error.message}\n`);
    return exitCodes.error;
  }
  const trusted: WorkspaceTrust = { ...trust, status: "trusted", trustedBy: "record", changes: [] };
  const reply = trustReply(trusted);
  if (json) {
    io.stdout(`${JSON.stringify(reply)}\n`);
    return exitCodes.completed;
  }
  io.stdout(
    `Trusted ${trust.projectRoot}. These project files now take effect in its sessions:\n${gatedFilesText(reply)}`,
  );
  return exitCodes.completed;
}

async function revoke(io: CommandIo, latheHome: string, folder: string, json: boolean): Promise<number> {
  const revoked = await revokeWorkspaceTrust(latheHome, folder);
  if (!revoked.ok) {
    io.stderr(`lathe trust: ${revoked.error.message}\n`);
    return exitCodes.error;
  }
  if (json) io.stdout(`${JSON.stringify({ folder, revoked: revoked.revoked })}\n`);
  else io.stdout(revoked.revoked ? `${folder} is no longer trusted.\n` : `${folder} was not trusted.\n`);
  return exitCodes.completed;
}

function listTrust(io: CommandIo, latheHome: string, settings: UserSettings, json: boolean): number {
  const read = readTrustRecord(latheHome);
  if (!read.ok) {
    io.stderr(`lathe trust: ${read.error.message}\n`);
    return exitCodes.error;
  }
  const folders = Object.entries(read.record.folders)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([folder, entry]) => {
      const now = checkWorkspaceTrust({ projectRoot: folder, latheHome });
      return {
        projectRoot: folder,
        trustedAt: entry.trustedAt,
        files: Object.keys(entry.files).sort(),
        status: now.status,
        changes: now.changes,
      };
    });
  const fromSettings = {
    trustedFolders: settings.trustedFolders ?? [],
    trustAllFolders: settings.trustAllFolders ?? false,
  };
  if (json) {
    io.stdout(`${JSON.stringify({ record: trustRecordPath(latheHome), folders, settings: fromSettings })}\n`);
    return exitCodes.completed;
  }
  if (fromSettings.trustAllFolders)
    io.stdout("Every folder is trusted (trustAllFolders in settings.json).\n");
  for (const folder of fromSettings.trustedFolders) io.stdout(`${folder}  trusted by settings.json\n`);
  if (folders.length === 0) io.stdout(`No folder is trusted in ${trustRecordPath(latheHome)}.\n`);
  for (const folder of folders) {
    const state =
      folder.status === "changed"
        ? `changed since: ${folder.changes.map((change) => `${change.path} (${change.change})`).join(", ")}`
        : folder.status;
    io.stdout(`${folder.projectRoot}  trusted ${folder.trustedAt}  ${state}\n`);
  }
  return exitCodes.completed;
}

function statusLine(trust: WorkspaceTrust): string {
  switch (trust.status) {
    case "not_needed":
      return `${trust.projectRoot} has no project hooks, MCP servers, allow rules or agents: nothing to trust.`;
    case "trusted":
      return `${trust.projectRoot} is trusted${trust.trustedBy === "setting" ? " by your settings.json" : ""}. These project files take effect:`;
    case "changed":
      return `${trust.projectRoot} was trusted, but these changed since: ${trust.changes.map((change) => `${change.path} (${change.change})`).join(", ")}. Not trusted until you trust it again:`;
    case "untrusted":
      return `${trust.projectRoot} is not trusted. These project files are ignored until you trust it:`;
  }
}
