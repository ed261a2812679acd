import { type AddressAllowances, checkUrl, type Resolver, systemResolver } from "./networkGuard/index.js";
import type { Assessment } from "./policyTypes.js";

/** A resolver that does not answer in this time leaves the verdict to the fetch itself. */
const resolveTimeoutMs = 5000;

/**
 * The network guard asked before a call, without connecting: the scheme, credentials, address
 * literals in every spelling, and what the host name resolves to. A refusal is a hard block with
 * the guard's own code; a name that does not resolve (or not in time) is left to the fetch, which
 * checks every hop again, so this never lets through anything the fetch would refuse.
 */
export async function urlBlock(
  url: string,
  allowances: AddressAllowances,
  resolve: Resolver = systemResolver,
): Promise<Assessment["block"]> {
  const checked = await checkUrl(url, { ...allowances, resolve: withTimeout(resolve) });
  if (checked.ok) return undefined;
  const { code, message } = checked.error;
  if (code === "E_NETWORK_BLOCKED" || code === "E_INVALID_ARGS") return { code, reason: message };
  return undefined;
}

function withTimeout(resolve: Resolver): Resolver {
  return (hostname) =>
    new Promise((settle, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`no answer within ${resolveTimeoutMs} ms`)),
        resolveTimeoutMs,
      );
      resolve(hostname).then(
        (answers) => {
          clearTimeout(timer);
          settle(answers);
        },
        (error: unknown) => {
          clearTimeout(timer);
          fail(error);
        },
      );
    });
}
