export { keyPatterns } from "./keyPatterns.js";
export { redactDeep, redactedMarker, secretRedactor } from "./secretRedactor.js";
export { environmentSecrets, isSecretVariable, knownKeyVariables } from "./secretVariables.js";
