// Types for pathBed.mjs, which stays plain JavaScript so the benchmark runs it without a build.
import type { LatheErrorInfo } from "@lathe/protocol";

export type PathExpectation = "allow" | "sensitive" | "E_PATH_TRAVERSAL" | "E_SECURITY_BLOCKED";

export interface PathCase {
  path: string;
  expect: PathExpectation;
  why: string;
  setup?: {
    files?: Record<string, string>;
    dirs?: string[];
    symlinks?: Record<string, string>;
    fifos?: string[];
  };
  extraRoots?: string[];
  latheHome?: string;
}

export interface PathChecks {
  resolveProjectPath(
    root: string,
    input: string,
    options: { extraRoots: string[] },
  ): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }>;
  isSensitivePath(input: string, options: { projectRoot: string; latheHome: string }): boolean;
}

export function makePathBed(
  testCase: PathCase,
  bases: string[],
): { root: string; input: string; extraRoots: string[]; latheHome: string };

export function pathOutcome(
  testCase: PathCase,
  checks: PathChecks,
  bases: string[],
): Promise<PathExpectation>;
