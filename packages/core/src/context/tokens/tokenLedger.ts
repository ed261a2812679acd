import type { Message, Part } from "@lathe/protocol";
import { countTokens } from "./countTokens.js";
import { messageOverheadTokens, type PartCounting, partTokens } from "./partTokens.js";

/** Tokens a request costs beyond its system prompt, tools and messages (priming of the reply). */
const requestOverheadTokens = 3;
/**
 * Observed ratios outside this range mean the usage report is wrong (a provider that leaves
 * input out, a proxy that counts differently), not that our tokenizer is that far off.
 */
const ratioBounds = { min: 0.5, max: 3 };
/** System prompts and tool lists repeat from request to request; a few recent ones are kept counted. */
const fixedTextCacheSize = 16;

export type TokenLedgerOptions = Partial<PartCounting>;

/**
 * Token estimates for requests. Messages never change once made, so each one is counted once:
 * counts are cached per message object and per part object. (By object rather than by message id:
 * a compaction view may show a message under its id with a tool output replaced by a note, and
 * that must be counted as what it is; unchanged parts keep their objects, so only the note is new.)
 */
export class TokenLedger {
  private readonly counting: PartCounting;
  private readonly messages = new WeakMap<Message, number>();
  private readonly parts = new WeakMap<Part, number>();
  private readonly fixedTexts = new Map<string, number>();
  private correction = 1;

  constructor(options: TokenLedgerOptions = {}) {
    this.counting = { includeReasoning: options.includeReasoning ?? false };
  }

  /** The factor raw estimates are multiplied by, learned from provider usage. */
  get ratio(): number {
    return this.correction;
  }

  partTokens(part: Part): number {
    let tokens = this.parts.get(part);
    if (tokens === undefined) {
      tokens = partTokens(part, this.counting);
      this.parts.set(part, tokens);
    }
    return tokens;
  }

  /** Uncalibrated estimate of one message. */
  messageTokens(message: Message): number {
    let tokens = this.messages.get(message);
    if (tokens === undefined) {
      tokens = messageOverheadTokens;
      for (const part of message.parts) tokens += this.partTokens(part);
      this.messages.set(message, tokens);
    }
    return tokens;
  }

  /** Uncalibrated estimate of a list of messages. */
  historyTokens(messages: readonly Message[]): number {
    let tokens = 0;
    for (const message of messages) tokens += this.messageTokens(message);
    return tokens;
  }

  /**
   * Provider usage is the truth: after a response, pass what `estimateRequest` said for the
   * request and the input tokens the provider reported, and later estimates are scaled by the
   * observed ratio. Passing the calibrated estimate back keeps corrections from compounding.
   */
  calibrate(estimatedInput: number, actualInput: number): void {
    if (estimatedInput <= 0 || actualInput <= 0) return;
    const ratio = (this.correction * actualInput) / estimatedInput;
    this.correction = Math.min(ratioBounds.max, Math.max(ratioBounds.min, ratio));
  }

  /** Calibrated estimate of the input tokens of a request. */
  estimateRequest(parts: { system: string; messages: readonly Message[]; toolsJson: string }): number {
    const raw =
      requestOverheadTokens +
      this.fixedTextTokens(parts.system) +
      this.fixedTextTokens(parts.toolsJson) +
      this.historyTokens(parts.messages);
    return Math.ceil(raw * this.correction);
  }

  private fixedTextTokens(text: string): number {
    let tokens = this.fixedTexts.get(text);
    if (tokens === undefined) {
      tokens = countTokens(text);
      if (this.fixedTexts.size >= fixedTextCacheSize) this.fixedTexts.clear();
      this.fixedTexts.set(text, tokens);
    }
    return tokens;
  }
}
