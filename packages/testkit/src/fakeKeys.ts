/**
 * Key-shaped strings for the tests of key handling and scrubbing, put together at run time so
 * that no key-shaped literal sits in the sources. None of them is a credential anywhere.
 */
const key = (...parts: string[]) => parts.join("");

export const fakeKeys = {
  /** What every scripted run is given as `OPENAI_API_KEY`. */
  openai: key("sk-", "test-not-a-real-key"),
  openaiBench: key("sk-", "bench-not-a-real-key"),
  openaiProject: key("sk-", "proj-Ab3dEf6hIj9kLm2nOp5q"),
  openaiSecret: key("sk-", "test-lathe-secret-0123456789abcdef"),
  openaiShort: key("sk-", "test-0123456789abcdef"),
  openaiLive: key("sk-", "live-abcdefgh"),
  openaiEmbeddings: key("sk-", "test-embeddings"),
  lathe: key("sk-", "lathe-test-7Qm2VxR9pL4sT8wZ1nB6cY3d"),
  anthropic: key("sk-", "ant-0123456789abcdef"),
  anthropicTestOnly: key("sk-", "ant-test-only-0123456789"),
  anthropicWebUi: key("sk-", "ant-web-ui-secret"),
  google: key("AIza", "Sy-0123456789"),
  github: key("ghp", "_16C7e42F292c6912E7710c838347Ae178B4a"),
  /** AWS's own documentation example. */
  aws: key("AKIA", "IOSFODNN7EXAMPLE"),
} as const;
