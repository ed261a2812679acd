import { StringDecoder } from "node:string_decoder";
import { utf8SuffixStart } from "../../fileSystem/utf8Slice.js";

/** What a reader gets: the text after its offset, and how much of it was already dropped. */
export interface RingRead {
  text: string;
  /** Bytes between the reader's offset and the oldest byte still kept. */
  droppedBytes: number;
  /** Offset to pass next time to get only what came after this read. */
  nextOffset: number;
}

/**
 * The newest `maxBytes` of a stream that may run for hours (a dev server, a watcher). Bytes are
 * addressed by their offset since the stream began, so a reader can ask for "everything after
 * what I last saw" and learn how much of that fell out of the buffer meanwhile.
 */
export class OutputRing {
  /** Chunks of whole characters: a chunk never starts or ends inside one. */
  private chunks: Buffer[] = [];
  private keptBytes = 0;
  /** Offset of the oldest kept byte. */
  private startOffset = 0;
  private readonly decoder = new StringDecoder("utf8");

  constructor(readonly maxBytes: number) {}

  /** Offset just past the newest byte. */
  get endOffset(): number {
    return this.startOffset + this.keptBytes;
  }

  push(bytes: Buffer): void {
    // The decoder holds back a character split across two pipe reads until it is whole.
    this.append(this.decoder.write(bytes));
  }

  /** The stream has ended: a character left incomplete at its end is kept as a replacement mark. */
  end(): void {
    this.append(this.decoder.end());
  }

  read(fromOffset: number): RingRead {
    const from = Math.max(fromOffset, this.startOffset);
    const droppedBytes = from - fromOffset;
    const text = Buffer.concat(this.chunks)
      .subarray(from - this.startOffset)
      .toString("utf8");
    return { text, droppedBytes, nextOffset: this.endOffset };
  }

  private append(text: string): void {
    if (text === "") return;
    const bytes = Buffer.from(text, "utf8");
    this.chunks.push(bytes);
    this.keptBytes += bytes.length;
    this.dropOldest();
  }

  private dropOldest(): void {
    while (this.keptBytes > this.maxBytes) {
      const oldest = this.chunks[0];
      if (oldest === undefined) return;
      const excess = this.keptBytes - this.maxBytes;
      // Cut after the excess, at the next character start, so the kept text stays valid UTF-8.
      const cut = oldest.length <= excess ? oldest.length : utf8SuffixStart(oldest, excess);
      if (cut >= oldest.length) this.chunks.shift();
      else this.chunks[0] = oldest.subarray(cut);
      this.keptBytes -= cut;
      this.startOffset += cut;
    }
  }
}
