export {
  type AddressAllowances,
  type AddressClass,
  type AddressClassification,
  describeBlockedAddress,
  type Ipv4Embedding,
  isClassAllowed,
} from "./addressClass.js";
export { type CheckedUrl, checkUrl, type NetworkGuardOptions, type UrlCheck } from "./checkUrl.js";
export { classifyAddress, classifyIpv4, classifyIpv6 } from "./classifyAddress.js";
export {
  type GuardedFetchOptions,
  type GuardedFetchResult,
  type GuardedRequestInit,
  type GuardedResponse,
  guardedFetch,
  guardedFetchDefaults,
} from "./guardedFetch.js";
export { isLocalhostName, isMetadataHostname, normaliseHostname } from "./hostname.js";
export { formatIpv4, parseIpv4Loose, parseIpv4Strict } from "./ipv4.js";
export { formatIpv6, parseIpv6 } from "./ipv6.js";
export { type ResolvedAddress, type Resolver, systemResolver } from "./resolver.js";
export { judgeAddress, preflightUrl, type UrlTarget } from "./urlTarget.js";
