// Queries over the corpus (zod 4.6.7 `src`, @ai-sdk/provider-utils 4.0.65 `src`, @ai-sdk/openai
// 3.0.141 `src`, as locked in package-lock.json), written by reading the sources before the
// ranking was tuned. Each lists every right answer: a hit is right when it is in `path` and, when
// given, is the chunk of `symbol` or covers the first line containing `needle`.
// Kinds: "natural" (words a person would type), "identifier" (a name, as copied from code),
// "mixed" (a name and words).
export const queries = [
  // provider-utils
  q("natural", "retry a failed API call with exponential backoff", [
    { path: "provider-utils/retry-with-exponential-backoff.ts" },
  ]),
  q("natural", "check whether two URLs have the same origin before sending credentials", [
    { path: "provider-utils/is-same-origin.ts", symbol: "isSameOrigin" },
  ]),
  q("natural", "strip the extension from a filename", [
    { path: "provider-utils/strip-file-extension.ts", symbol: "stripFileExtension" },
  ]),
  q("natural", "read a response body with a maximum size to avoid running out of memory", [
    { path: "provider-utils/read-response-with-size-limit.ts", symbol: "readResponseWithSizeLimit" },
  ]),
  q("natural", "release the connection by cancelling an unconsumed response body", [
    { path: "provider-utils/cancel-response-body.ts", symbol: "cancelResponseBody" },
  ]),
  q("natural", "serialize JSON with bigint values and circular references", [
    { path: "provider-utils/stringify-with-bigint-and-cycles.ts" },
  ]),
  q("natural", "map a media type to a file extension", [
    { path: "provider-utils/media-type-to-extension.ts", symbol: "mediaTypeToExtension" },
  ]),
  q("natural", "generate random ids with a prefix and separator", [
    { path: "provider-utils/generate-id.ts", symbol: "createIdGenerator" },
  ]),
  q("natural", "load the API key from an environment variable", [
    { path: "provider-utils/load-api-key.ts", symbol: "loadApiKey" },
  ]),
  q("natural", "remove request headers that must not be forwarded to an untrusted URL", [
    { path: "provider-utils/sanitize-request-headers.ts" },
  ]),
  q("natural", "parse JSON safely guarding against prototype poisoning", [
    { path: "provider-utils/secure-json-parse.ts" },
  ]),
  q("natural", "decode a base64 string into bytes", [
    { path: "provider-utils/uint8-utils.ts", symbol: "convertBase64ToUint8Array" },
    { path: "zod/v4/core/util.ts", symbol: "base64ToUint8Array" },
  ]),
  q("natural", "detect network errors that are worth retrying", [
    { path: "provider-utils/handle-fetch-error.ts" },
  ]),
  q("natural", "combine several header objects into one", [
    { path: "provider-utils/combine-headers.ts", symbol: "combineHeaders" },
  ]),
  q("natural", "remove the trailing slash from a url", [
    { path: "provider-utils/without-trailing-slash.ts", symbol: "withoutTrailingSlash" },
  ]),
  // zod
  q("natural", "format validation issues as a readable multi-line string with their paths", [
    { path: "zod/v4/core/errors.ts", symbol: "prettifyError" },
  ]),
  q("natural", "turn an issue path into a dotted path string", [
    { path: "zod/v4/core/errors.ts", symbol: "toDotPath" },
  ]),
  q("natural", "flatten errors into form errors and field errors", [
    { path: "zod/v4/core/errors.ts", symbol: "flattenError" },
    { path: "zod/v3/ZodError.ts", needle: "flatten<U>(mapper" },
  ]),
  q("natural", "floating point safe remainder for multipleOf checks", [
    { path: "zod/v4/core/util.ts", symbol: "floatSafeRemainder" },
    { path: "zod/v3/types.ts", symbol: "floatSafeRemainder" },
  ]),
  q("natural", "count unicode code points so a surrogate pair counts once", [
    { path: "zod/v4/core/util.ts", symbol: "codePointLength" },
  ]),
  q("natural", "convert a string to a url slug", [{ path: "zod/v4/core/util.ts", symbol: "slugify" }]),
  q("natural", "escape special characters in a regular expression", [
    { path: "zod/v4/core/util.ts", symbol: "escapeRegex" },
  ]),
  q("natural", "regular expression for validating email addresses", [
    { path: "zod/v4/core/regexes.ts", needle: "export const email" },
    { path: "zod/v3/types.ts", needle: "const emailRegex = /^(?!" },
  ]),
  q("natural", "convert a JSON schema document into a zod schema", [
    { path: "zod/v4/classic/from-json-schema.ts" },
  ]),
  q("natural", "generate a JSON schema from a zod schema", [
    { path: "zod/v4/core/json-schema-processors.ts", symbol: "toJSONSchema" },
    { path: "zod/v4/core/to-json-schema.ts" },
    { path: "zod/v4/core/json-schema-generator.ts" },
  ]),
  // openai
  q("natural", "map the OpenAI finish reason to the SDK finish reason", [
    { path: "openai/chat/map-openai-finish-reason.ts" },
    { path: "openai/completion/map-openai-finish-reason.ts" },
    { path: "openai/responses/map-openai-responses-finish-reason.ts" },
  ]),
  q("natural", "convert prompt messages to OpenAI chat messages", [
    { path: "openai/chat/convert-to-openai-chat-messages.ts" },
  ]),
  q("natural", "prepare function tools and tool choice for the chat API", [
    { path: "openai/chat/openai-chat-prepare-tools.ts" },
  ]),
  q("natural", "embedding model that calls the OpenAI embeddings endpoint", [
    { path: "openai/embedding/openai-embedding-model.ts" },
  ]),
  q("natural", "maximum number of images per call for each image model", [
    { path: "openai/image/openai-image-model-options.ts" },
  ]),
  q("natural", "text to speech model", [{ path: "openai/speech/openai-speech-model.ts" }]),
  // identifiers
  q("identifier", "createJsonErrorResponseHandler", [
    { path: "provider-utils/response-handler.ts", symbol: "createJsonErrorResponseHandler" },
  ]),
  q("identifier", "parseJsonEventStream", [
    { path: "provider-utils/parse-json-event-stream.ts", symbol: "parseJsonEventStream" },
  ]),
  q("identifier", "treeifyError", [{ path: "zod/v4/core/errors.ts", symbol: "treeifyError" }]),
  q("identifier", "$ZodRegistry", [{ path: "zod/v4/core/registries.ts", symbol: "$ZodRegistry" }]),
  q("identifier", "JSONSchemaGenerator", [
    { path: "zod/v4/core/json-schema-generator.ts", symbol: "JSONSchemaGenerator" },
  ]),
  q("identifier", "addIssueToContext", [
    { path: "zod/v3/helpers/parseUtil.ts", symbol: "addIssueToContext" },
  ]),
  q("identifier", "getErrorMessage", [
    { path: "provider-utils/get-error-message.ts", symbol: "getErrorMessage" },
  ]),
  // mixed
  q("mixed", "DelayedPromise resolve reject", [{ path: "provider-utils/delayed-promise.ts" }]),
  q("mixed", "ParseStatus merge object", [{ path: "zod/v3/helpers/parseUtil.ts" }]),
  q("mixed", "nanoid regex of a given length", [
    { path: "zod/v4/core/regexes.ts", symbol: "nanoidOfLength" },
  ]),
  q("mixed", "isAbortError check for aborted fetch", [
    { path: "provider-utils/is-abort-error.ts", symbol: "isAbortError" },
  ]),
];

function q(kind, query, answers) {
  return { kind, query, answers };
}
