import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { AddressAllowances, AddressClassification } from "./addressClass.js";
import { type Resolver, systemResolver } from "./resolver.js";
import { blocked, judgeAddress, preflightUrl } from "./urlTarget.js";

export interface NetworkGuardOptions extends AddressAllowances {
  /** Resolves host names; the system resolver when absent. */
  resolve?: Resolver;
}

/**
 * A URL that may be fetched, with the addresses that were checked for it. Connections must go to
 * these addresses and never to a fresh resolution of `hostname`, which could answer differently.
 */
export interface CheckedUrl {
  ok: true;
  url: URL;
  /** What TLS and the Host header must name: the normalised host name, or the address literal. */
  hostname: string;
  /** True when the URL names an address, so nothing was resolved. */
  literal: boolean;
  /** Every address the name resolved to, each allowed; the first is preferred. */
  addresses: readonly AddressClassification[];
}

export type UrlCheck = CheckedUrl | { ok: false; error: LatheErrorInfo };

/**
 * Decides whether `input` may be fetched: scheme, credentials and literal addresses first, then
 * the name is resolved once and every address it has must pass — one private answer among public
 * ones is enough to refuse, since the connection could be steered to any of them.
 */
export async function checkUrl(input: string | URL, options: NetworkGuardOptions = {}): Promise<UrlCheck> {
  const target = preflightUrl(input, options);
  if (!target.ok) return target;
  if (target.kind === "address") {
    return {
      ok: true,
      url: target.url,
      hostname: target.address.address,
      literal: true,
      addresses: [target.address],
    };
  }

  const resolve = options.resolve ?? systemResolver;
  let answers: readonly { address: string }[];
  try {
    answers = await resolve(target.hostname);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: errorInfo("E_TOOL_EXECUTION", `Could not resolve ${target.hostname}: ${reason}`),
    };
  }
  if (answers.length === 0) {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `${target.hostname} has no addresses.`) };
  }

  const addresses: AddressClassification[] = [];
  for (const answer of answers) {
    const verdict = judgeAddress(answer.address, options);
    if (!verdict.ok) {
      return blocked(
        `${target.url.href} is refused: ${target.hostname} resolves to ${answer.address}; ${verdict.reason}`,
      );
    }
    addresses.push(verdict.address);
  }
  return { ok: true, url: target.url, hostname: target.hostname, literal: false, addresses };
}
