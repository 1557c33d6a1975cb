// engram's services over @grpc/grpc-js: one channel per service client, a
// bearer token and a request id on every call, promises for unary methods,
// async iterables for server streams and EngramError for every failure.

import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { EngramError, REQUEST_ID_HEADER, isServiceError } from './errors';
import {
  SERVICE_NAMES,
  serviceConstructors,
  type MethodName,
  type RequestOf,
  type ResponseOf,
  type ServiceClients,
  type ServiceName,
} from './protos';

/** Transport security; PEM text or bytes. */
export interface TlsOptions {
  /** Root certificates to trust; the system's roots when omitted. */
  ca?: string | Buffer;
  /** Client certificate and key, for mutual TLS. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** The name to check the server's certificate against, when it is not the target's host. */
  serverName?: string;
}

export interface ConnectOptions {
  /** Sent as `authorization: Bearer <token>` on every call (engram's tokens file). */
  token?: string;
  /** TLS: `true` for the system roots, or the certificates to use. Plaintext when omitted. */
  tls?: boolean | TlsOptions;
  /** Default deadline of unary calls, in milliseconds (10 s). Streams have none unless given. */
  timeoutMs?: number;
  /** Passed to every grpc-js channel. */
  channelOptions?: grpc.ChannelOptions;
}

export interface CallOptions {
  /** Deadline of this call, in milliseconds. */
  timeoutMs?: number;
  /** Sent as `x-request-id`; a new UUID when omitted. Failures carry it as EngramError.requestId. */
  requestId?: string;
  /** More request metadata. */
  metadata?: Record<string, string>;
}

/** A server stream: `for await (const message of stream)`; leaving the loop cancels the call. */
export interface ServerStream<T> extends AsyncIterable<T> {
  /** The `x-request-id` sent with the call. */
  readonly requestId: string;
  /** Ends the call; iteration then finishes without an error. */
  cancel(): void;
  /** The call's final status code once it has ended: OK, CANCELLED after cancel(), or the error's. */
  readonly finished: Promise<grpc.status>;
}

const DEFAULT_TIMEOUT_MS = 10000;
// Messages buffered ahead of a slow consumer before the stream is paused.
const STREAM_HIGH_WATER = 64;

type UntypedMethod = (...args: unknown[]) => grpc.ClientUnaryCall | grpc.ClientReadableStream<unknown>;

function pem(value: string | Buffer | undefined): Buffer | null {
  if (value === undefined) return null;
  return Buffer.isBuffer(value) ? value : Buffer.from(value);
}

function channelCredentials(tls: ConnectOptions['tls']): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  const options = tls === true ? {} : tls;
  return grpc.credentials.createSsl(pem(options.ca), pem(options.key), pem(options.cert));
}

/** Clients for every engram service at one address. */
export class EngramClient {
  /** The generated grpc-js clients, for anything the helpers below do not cover. */
  readonly clients: ServiceClients;
  private readonly token: string;
  private readonly timeoutMs: number;

  constructor(target: string, options: ConnectOptions = {}) {
    this.token = options.token ?? '';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const credentials = channelCredentials(options.tls);
    const channelOptions: grpc.ChannelOptions = { ...options.channelOptions };
    const serverName = typeof options.tls === 'object' ? options.tls.serverName : undefined;
    if (serverName) channelOptions['grpc.ssl_target_name_override'] = serverName;
    const constructors = serviceConstructors();
    const names = Object.keys(constructors) as ServiceName[];
    this.clients = Object.fromEntries(
      names.map((name) => [name, new constructors[name](target, credentials, channelOptions)]),
    ) as unknown as ServiceClients;
  }

  /** A unary call: `await client.call('journal', 'CommitTurn', {...})`. Rejects with EngramError. */
  call<S extends ServiceName, M extends MethodName<S>>(
    service: S,
    method: M,
    request: RequestOf<S, M>,
    options: CallOptions = {},
  ): Promise<ResponseOf<S, M>> {
    let invoke: UntypedMethod;
    try {
      invoke = this.method(service, method, false);
    } catch (error) {
      return Promise.reject(error);
    }
    const requestId = options.requestId ?? randomUUID();
    const deadline = new Date(Date.now() + (options.timeoutMs ?? this.timeoutMs));
    return new Promise((resolve, reject) => {
      invoke(request, this.metadata(requestId, options), { deadline }, (error: unknown, response: unknown) => {
        if (error) reject(isServiceError(error) ? new EngramError(error, requestId) : error);
        else resolve(response as ResponseOf<S, M>);
      });
    });
  }

  /** A server-streaming call as an async iterable; errors are thrown as EngramError. */
  stream<S extends ServiceName, M extends MethodName<S>>(
    service: S,
    method: M,
    request: RequestOf<S, M>,
    options: CallOptions = {},
  ): ServerStream<ResponseOf<S, M>> {
    const invoke = this.method(service, method, true);
    const requestId = options.requestId ?? randomUUID();
    const callOptions: grpc.CallOptions = {};
    if (options.timeoutMs !== undefined) callOptions.deadline = new Date(Date.now() + options.timeoutMs);
    const call = invoke(request, this.metadata(requestId, options), callOptions) as grpc.ClientReadableStream<
      ResponseOf<S, M>
    >;
    return readStream(call, requestId);
  }

  /** JournalService.StreamChanges: the change feed after a cursor, live with `follow: true`. */
  streamChanges(
    request: RequestOf<'journal', 'StreamChanges'>,
    options: CallOptions = {},
  ): ServerStream<ResponseOf<'journal', 'StreamChanges'>> {
    return this.stream('journal', 'StreamChanges', request, options);
  }

  /** Closes every channel. */
  close(): void {
    for (const client of Object.values(this.clients) as grpc.Client[]) client.close();
  }

  private method(service: ServiceName, method: string, streaming: boolean): UntypedMethod {
    const definition = serviceConstructors()[service]?.service[method];
    if (!definition) throw new TypeError(`${SERVICE_NAMES[service] ?? service} has no method ${method}`);
    if (definition.requestStream || definition.responseStream !== streaming) {
      const use = definition.responseStream && !definition.requestStream ? 'stream()' : 'call()';
      throw new TypeError(`${SERVICE_NAMES[service]}.${method}: use ${use}`);
    }
    const client = this.clients[service] as unknown as Record<string, UntypedMethod>;
    return client[method]!.bind(client);
  }

  private metadata(requestId: string, options: CallOptions): grpc.Metadata {
    const metadata = new grpc.Metadata();
    for (const [key, value] of Object.entries(options.metadata ?? {})) metadata.set(key, value);
    if (this.token) metadata.set('authorization', `Bearer ${this.token}`);
    metadata.set(REQUEST_ID_HEADER, requestId);
    return metadata;
  }
}

function readStream<T>(call: grpc.ClientReadableStream<T>, requestId: string): ServerStream<T> {
  const queue: T[] = [];
  let ended = false;
  let cancelled = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  call.on('data', (message: T) => {
    queue.push(message);
    if (queue.length >= STREAM_HIGH_WATER) call.pause();
    notify();
  });
  call.on('end', () => {
    ended = true;
    notify();
  });
  call.on('error', (error: unknown) => {
    ended = true;
    failure = error;
    notify();
  });
  const finished = new Promise<grpc.status>((resolve) => call.on('status', (status) => resolve(status.code)));
  const cancel = () => {
    if (!ended) {
      cancelled = true;
      call.cancel();
    }
  };
  const iterator: AsyncIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
      if (queue.length > 0) {
        const value = queue.shift() as T;
        if (queue.length < STREAM_HIGH_WATER / 2 && call.isPaused()) call.resume();
        return { value, done: false };
      }
      if (failure !== undefined) {
        const error = failure;
        failure = undefined;
        const byCancel = cancelled && isServiceError(error) && error.code === grpc.status.CANCELLED;
        if (!byCancel) throw isServiceError(error) ? new EngramError(error, requestId) : error;
      }
      return { value: undefined, done: true };
    },
    async return(): Promise<IteratorResult<T>> {
      cancel();
      queue.length = 0;
      return { value: undefined, done: true };
    },
  };
  return { requestId, cancel, finished, [Symbol.asyncIterator]: () => iterator };
}

/** Clients for every engram service at `target` (`host:port`). */
export function connect(target: string, options: ConnectOptions = {}): EngramClient {
  return new EngramClient(target, options);
}
