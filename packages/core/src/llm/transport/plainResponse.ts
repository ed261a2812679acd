import { PlainHeaders } from "./plainHeaders.js";

/**
 * The part of the Fetch API's `Response` that model SDKs use — status, headers, a streamed body,
 * and the body read whole — without Node's `Response`, whose first use loads undici (see
 * `PlainHeaders`). Its body is a web stream, read once, like fetch's.
 */
export class PlainResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: PlainHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = "basic";
  private stream: ReadableStream<Uint8Array> | null;
  private used = false;

  constructor(
    body: ReadableStream<Uint8Array> | null,
    init: { status: number; statusText?: string; headers?: Iterable<[string, string]>; url?: string },
  ) {
    this.stream = body;
    this.status = init.status;
    this.statusText = init.statusText ?? "";
    this.headers = new PlainHeaders(init.headers);
    this.url = init.url ?? "";
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.stream;
  }

  get bodyUsed(): boolean {
    return this.used || (this.stream?.locked ?? false);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.used = true;
    if (this.stream === null) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.stream.getReader();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks.push(next.value);
    }
    return Buffer.concat(chunks);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
