import { type Message, newId, type Part } from "@lathe/protocol";
import type { SessionStorage } from "./sessionStorage.js";

/** The conversation as the model sees it, kept in memory and written to storage as it grows. */
export class Transcript {
  readonly messages: Message[] = [];

  constructor(
    private readonly sessionId: string,
    private readonly storage: SessionStorage,
  ) {}

  /** Messages of a resumed session: already stored, so only held. */
  resume(history: readonly Message[]): void {
    this.messages.push(...history);
  }

  newMessage(role: Message["role"], parts: Part[], id = newId()): Message {
    return { id, sessionId: this.sessionId, role, parts, createdAt: Date.now() };
  }

  /** In memory and in storage before anything announces it. */
  append(message: Message): void {
    this.messages.push(message);
    this.storage.write((store) => store.appendMessage(message));
  }

  push(role: Message["role"], parts: Part[]): Message {
    const message = this.newMessage(role, parts);
    this.append(message);
    return message;
  }

  /** A note to the model that goes with the conversation but is not the user's words. */
  remind(text: string): void {
    this.push("user", [{ type: "system_reminder", text }]);
  }
}
