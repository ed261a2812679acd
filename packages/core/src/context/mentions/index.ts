export { type Mention, type MentionKind, mentionKinds } from "./mention.js";
export {
  type MentionAttachment,
  type MentionLimits,
  type MentionSources,
  mentionLimitDefaults,
  type ResolvedMentions,
} from "./mentionSources.js";
export { parseMentions } from "./parseMentions.js";
export { resolveMentions } from "./resolveMentions.js";
