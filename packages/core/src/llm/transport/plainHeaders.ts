/**
 * The Fetch API's `Headers`, in plain JavaScript. Node's own `Headers` loads its whole fetch
 * implementation (undici, with node:http, node:tls and node:http2) the first time anything
 * touches it — tens of milliseconds at every start. Model responses carry these instead, and the
 * start-up snapshot gives them to the AI SDK's provider utilities in place of the global.
 *
 * Names are kept lower-cased; several values of one name are joined with ", " as fetch does.
 */
export class PlainHeaders implements Iterable<[string, string]> {
  private readonly byName = new Map<string, string>();

  constructor(init?: Iterable<readonly [string, string]> | Record<string, string | undefined> | null) {
    if (init === undefined || init === null) return;
    if (isIterable(init)) {
      for (const [name, value] of init as Iterable<readonly [string, string]>) this.append(name, value);
      return;
    }
    for (const [name, value] of Object.entries(init))
      if (value !== undefined) this.append(name, String(value));
  }

  /** `instanceof Headers` in the provider utilities holds for these and for Node's own. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return Object.prototype.toString.call(value) === "[object Headers]";
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const existing = this.byName.get(key);
    this.byName.set(key, existing === undefined ? value : `${existing}, ${value}`);
  }

  set(name: string, value: string): void {
    this.byName.set(name.toLowerCase(), String(value));
  }

  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.byName.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: PlainHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  /** In name order, as fetch iterates. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.byName.keys()].sort()) yield [name, this.byName.get(name) as string];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

function isIterable(value: object): boolean {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}
