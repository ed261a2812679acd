import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { describe, expect, it } from "vitest";
import { checkUrl, type Resolver } from "../../src/policy/networkGuard/index.js";

interface UrlCase {
  url: string;
  resolvesTo?: string[];
  options?: { allowLoopback?: boolean; allowPrivate?: boolean };
  expect: "allow" | "blocked";
  note: string;
}

const cases: UrlCase[] = JSON.parse(readFileSync(new URL("./corpora/urls.json", import.meta.url), "utf8"));

/** Answers from the case; a case without answers must never reach the resolver. */
function resolverFor(testCase: UrlCase): { resolve: Resolver; calls: string[] } {
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    calls.push(hostname);
    if (testCase.resolvesTo === undefined) throw new Error(`unexpected lookup of ${hostname}`);
    return testCase.resolvesTo.map((address) => ({ address, family: isIP(address.replace(/%.*/, "")) }));
  };
  return { resolve, calls };
}

describe("network guard URL corpus", () => {
  it("has enough cases of both kinds", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(cases.some((testCase) => testCase.expect === "allow")).toBe(true);
    expect(cases.some((testCase) => testCase.expect === "blocked")).toBe(true);
  });

  it.each(
    cases.map((testCase) => [`${testCase.expect} ${testCase.url} (${testCase.note})`, testCase] as const),
  )("%s", async (_name, testCase) => {
    const { resolve, calls } = resolverFor(testCase);
    const result = await checkUrl(testCase.url, { ...testCase.options, resolve });
    if (testCase.expect === "allow") {
      expect(result.ok ? "allow" : result.error.message).toBe("allow");
      if (result.ok && testCase.resolvesTo !== undefined) {
        expect(calls).toHaveLength(1);
        expect(result.addresses.length).toBe(testCase.resolvesTo.length);
      }
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("E_NETWORK_BLOCKED");
    }
    // No URL is ever resolved twice by one check.
    expect(calls.length).toBeLessThanOrEqual(1);
  });
});
