/**
 * The key variables Lathe itself reads (providers, then search services). The pattern below
 * covers them too; they are named so that a change of the pattern can never let one through.
 */
export const knownKeyVariables: readonly string[] = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "DEEPSEEK_API_KEY",
  "OPENAI_COMPATIBLE_API_KEY",
  "BRAVE_API_KEY",
  "BRAVE_SEARCH_API_KEY",
  "TAVILY_API_KEY",
  "GOOGLE_CSE_API_KEY",
];

/** Secrets whose names the word rules below cannot see (one word, or `PWD`, which is also the working directory). */
const otherSecretVariables = new Set(["PGPASSWORD", "MYSQL_PWD", "REDISCLI_AUTH"]);

/** A name with one of these words (between `_`) holds a secret: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`. */
const secretWords = new Set([
  "TOKEN",
  "TOKENS",
  "SECRET",
  "SECRETS",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "APIKEY",
  "CREDENTIAL",
  "CREDENTIALS",
]);

/** …or one of these words right before `KEY`: `*_API_KEY`, `*_PRIVATE_KEY`, `*_ACCESS_KEY`. */
const keyQualifiers = new Set(["API", "PRIVATE", "ACCESS", "SECRET", "SIGNING", "ENCRYPTION", "MASTER"]);

/**
 * Whether an environment variable's name says it holds a secret. Matched on whole words, so
 * `TOKENIZERS_PARALLELISM`, `SSH_AUTH_SOCK` and `KEYTIMEOUT` are not secrets; case is ignored.
 */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  if (knownKeyVariables.includes(upper) || otherSecretVariables.has(upper)) return true;
  const words = upper.split(/[^A-Z0-9]+/).filter((word) => word !== "");
  return words.some(
    (word, index) => secretWords.has(word) || (word === "KEY" && keyQualifiers.has(words[index - 1] ?? "")),
  );
}

/** The values of the variables that hold secrets: what must be redacted wherever it shows up. */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && value.trim() !== "" && isSecretVariable(name) ? [value] : [],
  );
}
