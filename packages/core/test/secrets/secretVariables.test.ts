import { describe, expect, it } from "vitest";
import { apiKeyEnvVars } from "../../src/llm/credentials.js";
import { environmentSecrets, isSecretVariable, knownKeyVariables } from "../../src/secrets/index.js";

describe("isSecretVariable", () => {
  it("calls every key variable of Lathe's providers a secret", () => {
    for (const name of Object.values(apiKeyEnvVars).flat()) expect(isSecretVariable(name), name).toBe(true);
    for (const name of knownKeyVariables) expect(isSecretVariable(name), name).toBe(true);
  });

  it.each([
    "GITHUB_TOKEN",
    "NPM_TOKEN",
    "HF_TOKEN",
    "AWS_SESSION_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_ACCESS_KEY_ID",
    "STRIPE_API_KEY",
    "MISTRAL_APIKEY",
    "DB_PASSWORD",
    "PGPASSWORD",
    "MYSQL_PWD",
    "SMTP_PASSWD",
    "GPG_PASSPHRASE",
    "JWT_SIGNING_KEY",
    "SSH_PRIVATE_KEY",
    "CLIENT_SECRET",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "LATHE_SERVER_TOKEN",
    "openai_api_key",
  ])("%s is a secret", (name) => {
    expect(isSecretVariable(name)).toBe(true);
  });

  it.each([
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "TERM",
    "USER",
    "SHELL",
    "TMPDIR",
    "SSH_AUTH_SOCK",
    "TOKENIZERS_PARALLELISM",
    "KEYTIMEOUT",
    "LATHE_HOME",
    "NODE_OPTIONS",
    "GPG_TTY",
    "PRIMARY_KEYBOARD",
    "PWD",
    "OLDPWD",
  ])("%s is not a secret", (name) => {
    expect(isSecretVariable(name)).toBe(false);
  });
});

describe("environmentSecrets", () => {
  it("gives the non-empty values of the secret variables, nothing else", () => {
    expect(
      environmentSecrets({
        GITHUB_TOKEN: "token-value-1",
        OPENAI_API_KEY: "  ",
        EMPTY_SECRET: "",
        UNSET_PASSWORD: undefined,
        HOME: "/home/someone",
      }),
    ).toEqual(["token-value-1"]);
  });
});
