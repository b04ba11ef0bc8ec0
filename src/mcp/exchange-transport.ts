import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK Transport under the one long-lived MCP Server of a Scout process (http-handler.ts).
 * The SDK's own stateless HTTP transport serves a single request and wants a new Server for
 * each (and converts Node's request and response into Web ones on the way), which cost more
 * than the search itself; this one carries many HTTP requests at once. Each POST is an
 * exchange: its JSON-RPC messages go into the Server, and the Server's answers come back to
 * it. The protocol (schemas, dispatch, errors) stays the SDK's; only the routing is ours,
 * and the HTTP framing around it (http-framing.ts).
 *
 * Request ids are the clients' own, so two clients collide: each request enters the Server
 * under a process-unique id, and its answer leaves with the caller's id again.
 */

/** One POST in flight: the answers of its requests (as JSON), in their order in the batch. */
export interface Exchange<C> {
  readonly context: C;
  readonly ourIds: number[];
  readonly answers: string[];
  waiting: number;
  reply: ((json: string) => void) | undefined;
}

interface Pending<C> {
  exchange: Exchange<C>;
  slot: number;
  callerId: RequestId;
  /** JSON of the result the request's handler returned, when it had it already. */
  resultJson?: string;
}

export class ExchangeTransport<C> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #pending = new Map<number, Pending<C>>();
  // From 1: the SDK ignores a cancellation of request id 0.
  #lastId = 0;

  async start(): Promise<void> {}

  /** Requests whose answer is awaited (what an abandoned exchange must not leave behind). */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** What the exchange of request `id` (an id the Server sees) was dispatched with. */
  contextOf(id: RequestId): C | undefined {
    return typeof id === 'number' ? this.#pending.get(id)?.exchange.context : undefined;
  }

  /**
   * Hands one POST's messages to the Server. `reply` gets the JSON of the answers once every
   * request among them is answered: one answer alone, several as an array (the SDK's shape).
   * Without requests nothing is awaited and `reply` is never called (the POST is a 202).
   */
  dispatch(
    messages: JSONRPCMessage[],
    extra: MessageExtraInfo,
    context: C,
    reply: (json: string) => void,
  ): Exchange<C> {
    const exchange: Exchange<C> = { context, ourIds: [], answers: [], waiting: 0, reply };
    for (const m of messages) {
      // Not passed on: a client's responses (this server sends no requests to answer, and the
      // ids could name another client's), and its cancellations (they name the client's own
      // ids; with the SDK's transport they reached a new Server, which had nothing to cancel).
      if (!('method' in m) || m.method === 'notifications/cancelled') continue;
      if ('id' in m) {
        const ourId = ++this.#lastId;
        this.#pending.set(ourId, { exchange, slot: exchange.answers.length, callerId: m.id });
        exchange.ourIds.push(ourId);
        exchange.answers.push('');
        exchange.waiting += 1;
        m.id = ourId;
      }
      this.onmessage?.(m, extra);
    }
    return exchange;
  }

  /**
   * The JSON of the result request `id` is answered with, as its handler serialized it: the
   * answer then carries it as it is, when the Server answers with a result (the SDK checks the
   * result against its schema and answers an equal copy; an error answer goes as it is).
   */
  useResultJson(id: RequestId, json: string): void {
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (pending !== undefined) pending.resultJson = json;
  }

  /** The POST's connection closed before its answer: its requests are cancelled and forgotten. */
  abandon(exchange: Exchange<C>): void {
    if (exchange.reply === undefined) return;
    exchange.reply = undefined;
    for (const ourId of exchange.ourIds) {
      if (!this.#pending.delete(ourId)) continue;
      // The SDK's own cancellation: the handler's signal aborts and its answer is dropped.
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: ourId, reason: 'HTTP connection closed' },
      });
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Answers only: with JSON answers the SDK's transport drops the notifications a handler
    // sends, and this server makes no requests of its clients.
    if (!('id' in message) || message.id === undefined || 'method' in message) return;
    const pending = typeof message.id === 'number' ? this.#pending.get(message.id) : undefined;
    if (pending === undefined) return; // abandoned: nobody to tell
    this.#pending.delete(message.id as number);
    const { exchange, callerId, resultJson } = pending;
    // The SDK's own key order: result (or error), jsonrpc, id.
    exchange.answers[pending.slot] =
      resultJson !== undefined && 'result' in message
        ? `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(callerId)}}`
        : JSON.stringify({ ...message, id: callerId });
    exchange.waiting -= 1;
    if (exchange.waiting > 0 || exchange.reply === undefined) return;
    const reply = exchange.reply;
    exchange.reply = undefined;
    const [only] = exchange.answers;
    reply(exchange.answers.length === 1 && only !== undefined ? only : `[${exchange.answers.join(',')}]`);
  }

  /** Nothing closes it while the app runs; if the Server is closed, what is in flight is answered. */
  async close(): Promise<void> {
    for (const id of [...this.#pending.keys()]) {
      await this.send({
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.ConnectionClosed, message: 'Connection closed' },
      });
    }
    this.onclose?.();
  }
}
