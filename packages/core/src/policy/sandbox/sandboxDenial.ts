import path from "node:path";
import { sandboxTmp } from "./sandboxArgv.js";

export interface DenialContext {
  /** Also searched: test runners and some tools report errors on stdout. */
  stdout?: string;
  /** Writable inside the sandbox besides `/tmp`: the project and extra roots. */
  writableRoots?: readonly string[];
  /** The command ran without network, so a refused local connection is the sandbox's doing too. */
  networkCut?: boolean;
}

/** What the sandbox's refusals look like, in the words of libc, Node, npm, curl, git and bwrap. */
const alwaysDenial: readonly RegExp[] = [
  /read-only file system/i,
  /\bEROFS\b/,
  /network is unreachable/i,
  /\bENETUNREACH\b/,
  /could not resolve host/i,
  /temporary failure in name resolution/i,
  /\bEAI_AGAIN\b/,
  // bwrap itself failed to set the sandbox up.
  /^bwrap: /m,
];

/** Inside a network namespace of its own, nothing listens on the loopback but what the command starts. */
const cutNetworkDenial: readonly RegExp[] = [/connection refused/i, /\bECONNREFUSED\b/];

const permissionLine = /permission denied|\bEACCES\b|\bEPERM\b/i;
const absolutePath = /(?:^|[\s'"`(=:])(\/[^\s'"`):,]+)/g;

/**
 * Whether a failed sandboxed command looks stopped by the sandbox rather than by its own bug: a
 * write outside the writable places, a network access. A false alarm only offers the user a
 * retry outside the sandbox; a miss leaves the model to read the error itself.
 */
export function sandboxDenial(exitCode: number | null, stderr: string, context: DenialContext = {}): boolean {
  if (exitCode === null || exitCode === 0) return false;
  const texts = context.stdout === undefined ? [stderr] : [stderr, context.stdout];
  const patterns = context.networkCut === true ? [...alwaysDenial, ...cutNetworkDenial] : alwaysDenial;
  if (texts.some((text) => patterns.some((pattern) => pattern.test(text)))) return true;
  const writable = [sandboxTmp, ...(context.writableRoots ?? [])];
  return texts.some((text) => permissionDeniedOutside(text, writable));
}

/**
 * "Permission denied" is also what a script without its x bit or a file of another user gives,
 * and those would fail outside the sandbox too; only a denial naming a path the sandbox keeps
 * read-only counts.
 */
function permissionDeniedOutside(text: string, writable: readonly string[]): boolean {
  for (const line of text.split("\n")) {
    if (!permissionLine.test(line)) continue;
    for (const match of line.matchAll(absolutePath)) {
      const mentioned = match[1];
      if (mentioned !== undefined && !writable.some((root) => isInside(mentioned, root))) return true;
    }
  }
  return false;
}

function isInside(target: string, directory: string): boolean {
  const relative = path.relative(directory, path.resolve(target));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Appended to the output the model reads when `sandboxDenial` says yes. */
export function sandboxDenialNote(network: boolean): string {
  const limits = network
    ? "commands may write only inside the project and /tmp"
    : "commands may write only inside the project and /tmp, and have no network";
  return (
    `[sandbox] This command looks blocked by the sandbox (${limits}). Do not try to get around ` +
    "the sandbox: the user can approve running this command again outside it."
  );
}
