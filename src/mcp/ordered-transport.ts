// Message order for the SDK's client. The SDK runs a notification's handler a microtask after
// the message arrives but handles a response at once, and drops the call's progress handler
// with its response. A transport that delivers a progress notification and the response in the
// same turn (one stdout chunk, one SSE read) therefore loses the last progress update. This
// wrapper hands the client one message at a time and, after a notification, lets the event loop
// turn (its handler runs) before the next one; the close waits for the messages before it.
// Loaded lazily, with the SDK (see open-client.ts).
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

type Delivery = [JSONRPCMessage, MessageExtraInfo | undefined];

export class OrderedTransport<T extends Transport> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private readonly queue: Delivery[] = [];
  private waiting?: NodeJS.Immediate;
  private closePending = false;

  constructor(readonly inner: T) {
    inner.onmessage = (message, extra) => {
      this.queue.push([message, extra]);
      if (!this.waiting) this.pump();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      if (this.waiting) this.closePending = true;
      else this.onclose?.();
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private pump(): void {
    this.waiting = undefined;
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      const [message, extra] = next;
      this.onmessage?.(message, extra);
      // Whatever comes next (now or later in this turn) waits for the notification's handler.
      if ("method" in message && !("id" in message)) {
        this.waiting = setImmediate(() => this.pump());
        return;
      }
    }
    if (this.closePending) {
      this.closePending = false;
      this.onclose?.();
    }
  }
}
