import { realpathSync } from "node:fs";
import path from "node:path";
import type { LatheErrorInfo } from "@lathe/protocol";
import { type GatedFile, readGatedFiles } from "./gatedFiles.js";
import { trustFingerprint } from "./trustFingerprint.js";
import { readTrustRecord, type TrustedFolder } from "./trustRecord.js";

/** The user's settings that trust folders without a record (for CI and containers). */
export interface TrustSettings {
  /** Folders trusted with everything beneath them, whatever their files hold. */
  trustedFolders?: readonly string[];
  /** Every folder: only for machines that run nothing but the user's own repositories. */
  trustAllFolders?: boolean;
}

/**
 * - `not_needed`: the folder holds no gated file.
 * - `trusted`: the record matches the files as they are now, or a setting trusts the folder.
 * - `untrusted`: never trusted (or revoked).
 * - `changed`: trusted once, but the gated files have changed since.
 */
export type TrustStatus = "not_needed" | "trusted" | "untrusted" | "changed";

export interface GatedFileChange {
  path: string;
  change: "added" | "edited" | "removed";
}

export interface WorkspaceTrust {
  /** The folder's real path: the record's key. */
  projectRoot: string;
  status: TrustStatus;
  /** How a `trusted` folder is trusted. */
  trustedBy?: "record" | "setting";
  files: GatedFile[];
  fingerprint: string;
  /** For `changed`: what differs from the files that were trusted. */
  changes: GatedFileChange[];
  /** The record could not be read; the folder counts as untrusted and the record is left alone. */
  recordError?: LatheErrorInfo;
}

export interface WorkspaceTrustInputs {
  projectRoot: string;
  latheHome: string;
  settings?: TrustSettings;
}

/**
 * Whether the project's gated files may take effect. Cheap when there is nothing to gate: the
 * record is read only when the folder holds a gated file.
 */
export function checkWorkspaceTrust(inputs: WorkspaceTrustInputs): WorkspaceTrust {
  const projectRoot = realPath(inputs.projectRoot);
  const files = readGatedFiles(projectRoot);
  const fingerprint = trustFingerprint(files);
  const base = { projectRoot, files, fingerprint, changes: [] };
  if (files.length === 0) return { ...base, status: "not_needed" };
  if (trustedBySetting(projectRoot, inputs.settings))
    return { ...base, status: "trusted", trustedBy: "setting" };
  const read = readTrustRecord(inputs.latheHome);
  if (!read.ok) return { ...base, status: "untrusted", recordError: read.error };
  const entry = read.record.folders[projectRoot];
  if (entry === undefined) return { ...base, status: "untrusted" };
  if (entry.fingerprint === fingerprint) return { ...base, status: "trusted", trustedBy: "record" };
  return { ...base, status: "changed", changes: changesSince(entry, files) };
}

/** Whether the gated files may take effect in a session. */
export function projectTrusted(trust: WorkspaceTrust): boolean {
  return trust.status === "trusted";
}

function trustedBySetting(projectRoot: string, settings: TrustSettings | undefined): boolean {
  if (settings?.trustAllFolders === true) return true;
  return (settings?.trustedFolders ?? []).some((folder) => {
    const trusted = realPath(folder);
    return projectRoot === trusted || projectRoot.startsWith(`${trusted}${path.sep}`);
  });
}

function changesSince(entry: TrustedFolder, files: readonly GatedFile[]): GatedFileChange[] {
  const changes: GatedFileChange[] = [];
  const now = new Map(files.map((file) => [file.path, file.sha256]));
  for (const file of files) {
    const then = entry.files[file.path];
    if (then === undefined) changes.push({ path: file.path, change: "added" });
    else if (then !== file.sha256) changes.push({ path: file.path, change: "edited" });
  }
  for (const trustedPath of Object.keys(entry.files).sort()) {
    if (!now.has(trustedPath)) changes.push({ path: trustedPath, change: "removed" });
  }
  return changes;
}

/** The real path when the folder exists; the absolute path otherwise. */
export function realPath(folder: string): string {
  const absolute = path.resolve(folder);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
