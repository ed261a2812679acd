import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import type { AddressClassification } from "./addressClass.js";

/**
 * A `lookup` for `net.connect` that answers only with addresses the guard already checked, so the
 * socket cannot reach whatever a second DNS query (a rebinding attacker's answer) would return.
 * Node calls it with `all: true` when it races address families, and without otherwise.
 */
export function pinnedLookup(hostname: string, addresses: readonly AddressClassification[]): LookupFunction {
  return (requested, options, callback) => {
    // Node passes 0 (any), 4 or 6; the option also accepts the strings "IPv4" and "IPv6".
    const family =
      options.family === 4 || options.family === "IPv4"
        ? 4
        : options.family === 6 || options.family === "IPv6"
          ? 6
          : undefined;
    const candidates: LookupAddress[] = addresses
      .filter((address) => family === undefined || address.family === family)
      .map((address) => ({ address: address.address, family: address.family }));
    const first = candidates[0];
    if (requested !== hostname || first === undefined) {
      const error: NodeJS.ErrnoException = new Error(
        `No checked address for ${requested}${family === undefined ? "" : ` (IPv${family})`}.`,
      );
      error.code = "ENOTFOUND";
      callback(error, "", 0);
      return;
    }
    if (options.all === true) callback(null, candidates);
    else callback(null, first.address, first.family);
  };
}
