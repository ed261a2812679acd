export { clipToTokens } from "./clipToTokens.js";
export { countTokens } from "./countTokens.js";
export { TokenLedger, type TokenLedgerOptions } from "./tokenLedger.js";
