/**
 * Memories are stored in plain text and put into every later prompt, so anything that looks like
 * a credential is refused before it is saved. Known formats first; then long random-looking runs,
 * which is where keys of unknown providers end up.
 */
const knownFormats: readonly { kind: string; pattern: RegExp }[] = [
  { kind: "a private key", pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/ },
  { kind: "an API key (sk-…)", pattern: /\bsk-[A-Za-z0-9_-]{16,}/ },
  { kind: "a GitHub token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/ },
  { kind: "an AWS access key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: "a Slack token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: "a Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { kind: "a password or token", pattern: /\b(?:password|passwd|secret|token|api[_-]?key)\s*[:=]\s*\S{6,}/i },
];

/** Hex of key length: 32 characters is a 128-bit key (commit hashes, at 40, are refused too). */
const hexRun = /(?<![0-9A-Za-z])[0-9A-Fa-f]{32,}(?![0-9A-Za-z])/;

const base64Run = /[A-Za-z0-9+/=_-]{32,}/g;

/**
 * Random base64 switches between upper case, lower case and digits at most characters (about 63%
 * of neighbours); identifiers and paths switch only at word boundaries (about 30-40%). Measured
 * with the digit and case checks below: about 3% of random 32-character tokens pass unnoticed,
 * under 1% of 43-character ones (32 bytes), while camelCase names and paths are let through.
 */
const minClassSwitches = 0.4;

/** What kind of secret `text` seems to hold, or undefined when it looks like ordinary text. */
export function secretLike(text: string): string | undefined {
  const known = knownFormats.find((format) => format.pattern.test(text));
  if (known) return known.kind;
  if (hexRun.test(text)) return "a long hexadecimal key";
  for (const [run] of text.matchAll(base64Run)) {
    if (looksRandom(run)) return "a long random-looking token";
  }
  return undefined;
}

function looksRandom(run: string): boolean {
  const digits = run.replace(/[^0-9]/g, "").length;
  if (digits < 2 || !/[a-z]/.test(run) || !/[A-Z]/.test(run)) return false;
  let switches = 0;
  for (let index = 1; index < run.length; index++) {
    if (charClass(run[index]!) !== charClass(run[index - 1]!)) switches++;
  }
  return switches / (run.length - 1) >= minClassSwitches;
}

function charClass(char: string): number {
  if (char >= "A" && char <= "Z") return 0;
  if (char >= "a" && char <= "z") return 1;
  if (char >= "0" && char <= "9") return 2;
  return 3;
}
