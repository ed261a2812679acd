import { StringDecoder } from "node:string_decoder";
import { utf8SuffixStart } from "../../../fileSystem/utf8Slice.js";

/** Share of the capture kept from the start of the stream; the rest follows its end. */
const headShare = 0.2;

/**
 * Collects one output stream of a command within a byte budget. The start and the latest part are
 * kept and the middle dropped, because a command's end (a test summary, the error that stopped a
 * build) matters most.
 */
export class StreamCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes received but not kept. */
  droppedBytes = 0;
  totalBytes = 0;

  constructor(readonly maxBytes: number) {
    this.headLimit = Math.floor(maxBytes * headShare);
    this.tailLimit = maxBytes - this.headLimit;
  }

  get full(): boolean {
    return this.totalBytes >= this.maxBytes;
  }

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const taken = rest.subarray(0, this.headLimit - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    this.dropOldTail();
  }

  text(streamName: string): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (this.droppedBytes === 0) return Buffer.concat([head, tail]).toString("utf8");
    // The cut can fall inside a character on either side; neither half may show a broken one.
    const headText = new StringDecoder("utf8").write(head);
    const tailText = tail.subarray(utf8SuffixStart(tail, 0)).toString("utf8");
    const note =
      `[... ${this.droppedBytes.toLocaleString("en-US")} bytes of ${streamName} left out here: ` +
      `each stream keeps at most ${this.maxBytes.toLocaleString("en-US")} bytes, its start and its end ...]`;
    return `${headText}\n${note}\n${tailText}`;
  }

  private dropOldTail(): void {
    while (this.tailBytes > this.tailLimit) {
      const oldest = this.tail[0];
      if (oldest === undefined) return;
      const excess = this.tailBytes - this.tailLimit;
      if (oldest.length <= excess) {
        this.tail.shift();
        this.tailBytes -= oldest.length;
        this.droppedBytes += oldest.length;
      } else {
        this.tail[0] = oldest.subarray(excess);
        this.tailBytes -= excess;
        this.droppedBytes += excess;
      }
    }
  }
}
