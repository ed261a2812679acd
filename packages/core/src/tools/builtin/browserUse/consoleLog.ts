import type { ConsoleMessage, Page } from "playwright-core";

export interface ConsoleEntry {
  /** `log`, `info`, `warning`, `error`, `debug`…, as the page used it; uncaught exceptions are `error`. */
  level: string;
  text: string;
  /** `url:line` of the code that logged, when known. */
  location?: string;
}

/** A chatty page must not fill memory or the model's context between two reads. */
const maxEntries = 500;
const maxEntryChars = 2000;

/** The page's console since the model last read it. */
export class ConsoleLog {
  private entries: ConsoleEntry[] = [];
  private dropped = 0;

  /** Starts recording what `page` logs and every exception it does not catch. */
  attach(page: Page): void {
    page.on("console", (message) => this.push(fromMessage(message)));
    page.on("pageerror", (error) =>
      this.push({ level: "error", text: `Uncaught ${error.name}: ${error.message}` }),
    );
  }

  get pending(): number {
    return this.entries.length;
  }

  /** The entries since the last call, and how many older ones were dropped for space. */
  take(): { entries: ConsoleEntry[]; dropped: number } {
    const taken = { entries: this.entries, dropped: this.dropped };
    this.entries = [];
    this.dropped = 0;
    return taken;
  }

  private push(entry: ConsoleEntry): void {
    const text =
      entry.text.length > maxEntryChars ? `${entry.text.slice(0, maxEntryChars)} … [cut]` : entry.text;
    this.entries.push({ ...entry, text });
    if (this.entries.length > maxEntries) {
      this.entries.shift();
      this.dropped++;
    }
  }
}

function fromMessage(message: ConsoleMessage): ConsoleEntry {
  const { url, lineNumber } = message.location();
  // Playwright's line numbers are 0-based; people and editors count from 1.
  const location = url === "" ? undefined : `${url}:${lineNumber + 1}`;
  return { level: message.type(), text: message.text(), location };
}
