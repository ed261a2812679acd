/**
 * Formats of credentials that are unmistakable on their own, redacted even when Lathe does not
 * know the value (a key in a project file, another tool's token). Only prefixed formats: a
 * generic "long random string" rule would eat commit hashes, checksums and ids.
 */
export const keyPatterns: readonly RegExp[] = [
  // A PEM private key, whole; one cut before its END line is redacted to the end of the text.
  /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g,
  // OpenAI, Anthropic, DeepSeek and most OpenAI-compatible services.
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
];
