export {
  type CatalogLookup,
  catalogWith,
  costOf,
  lookupModel,
  type ModelCatalog,
  type ModelInfo,
  modelInfoSchema,
  shippedCatalog,
  type TokenCounts,
  unknownModelInfo,
} from "./catalog.js";
export {
  type ApiKeyLookup,
  type ApiKeySettings,
  type AuthAdvice,
  apiKeyEnvVars,
  type CredentialsFile,
  type CredentialsRead,
  credentialsPath,
  type KeySource,
  knownSecrets,
  readCredentialsFile,
  resolveApiKey,
} from "./credentials.js";
export { createEmbedder, type EmbedderSettings } from "./embeddings.js";
export {
  createModelClient,
  type ModelClientCreation,
  type ModelClientSettings,
  type RetryNotice,
} from "./gateway.js";
export {
  type LocalProbeResult,
  type LocalServer,
  noProviderHelp,
  type ProbeSettings,
  probeLocalProviders,
} from "./localProbe.js";
export {
  type ModelIdParse,
  type ParsedModelId,
  type ProviderName,
  parseModelId,
  providerNames,
} from "./modelId.js";
export type { ModelClient, ModelRequest, ModelStreamEvent, ToolSpec } from "./modelStream.js";
export { type PromptOptions, toProviderPrompt, toProviderTools } from "./promptConversion.js";
export {
  createLanguageModel,
  defaultBaseUrls,
  loadProviderPackages,
  type ProviderConnection,
} from "./providers.js";
export {
  classifyFailure,
  decideRetry,
  defaultRetrySettings,
  type Failure,
  type FailureKind,
  type RetryDecision,
  type RetrySettings,
  retryAfterMs,
  retrySettingsWith,
} from "./retryPolicy.js";
export { PlainHeaders } from "./transport/plainHeaders.js";
