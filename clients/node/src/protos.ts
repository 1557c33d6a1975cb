// The .proto files bundled in the package (proto/, beside dist/) and the
// service definitions loaded from them at run time.

import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { GatewayServiceClient, GatewayServiceDefinition } from './generated/engram/gateway/v1/GatewayService';
import type { JournalServiceClient, JournalServiceDefinition } from './generated/engram/journal/v1/JournalService';
import type { LearningServiceClient, LearningServiceDefinition } from './generated/engram/learning/v1/LearningService';
import type {
  RetrievalServiceClient,
  RetrievalServiceDefinition,
} from './generated/engram/retrieval/v1/RetrievalService';
import type { HealthClient, HealthDefinition } from './generated/grpc/health/v1/Health';

/** The bundled .proto files: engram's, google.rpc's status and error details, grpc.health.v1. */
export const PROTO_ROOT = path.resolve(__dirname, '..', 'proto');

const SERVICE_FILES = [
  'engram/journal/v1/journal.proto',
  'engram/learning/v1/learning.proto',
  'engram/retrieval/v1/retrieval.proto',
  'engram/gateway/v1/gateway.proto',
  'grpc/health/v1/health.proto',
];

/**
 * How messages are represented (the generated types describe this shape):
 * proto field names, enum values as names, 64-bit integers as decimal strings
 * (no precision loss, and what the Coverage digest rule needs), defaults for
 * unset scalars, and the name of the set member on each oneof.
 */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/** The service definitions, by the short name the client uses. */
export interface ServiceDefinitions {
  journal: JournalServiceDefinition;
  learning: LearningServiceDefinition;
  retrieval: RetrievalServiceDefinition;
  gateway: GatewayServiceDefinition;
  health: HealthDefinition;
}

/** The generated grpc-js client of each service. */
export interface ServiceClients {
  journal: JournalServiceClient;
  learning: LearningServiceClient;
  retrieval: RetrievalServiceClient;
  gateway: GatewayServiceClient;
  health: HealthClient;
}

export type ServiceName = keyof ServiceDefinitions;

// The generated definitions extend grpc.ServiceDefinition, whose string index
// signature would make any string a method name: keep the declared ones.
type DeclaredKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** The methods of a service, as named in the .proto file (`CommitTurn`). */
export type MethodName<S extends ServiceName> = DeclaredKeys<ServiceDefinitions[S]> & string;

/** What a method accepts: proto field names, any field may be omitted. */
export type RequestOf<S extends ServiceName, M extends MethodName<S>> =
  ServiceDefinitions[S][M] extends MethodDefinition<infer Request, object, object, object> ? Request : never;

/** What a method returns (each message of a server stream): every field present. */
export type ResponseOf<S extends ServiceName, M extends MethodName<S>> =
  ServiceDefinitions[S][M] extends MethodDefinition<object, object, object, infer Response> ? Response : never;

/** The full gRPC service name of each short name. */
export const SERVICE_NAMES: Record<ServiceName, string> = {
  journal: 'engram.journal.v1.JournalService',
  learning: 'engram.learning.v1.LearningService',
  retrieval: 'engram.retrieval.v1.RetrievalService',
  gateway: 'engram.gateway.v1.GatewayService',
  health: 'grpc.health.v1.Health',
};

type ClientConstructor = grpc.ServiceClientConstructor;

let loaded: Record<ServiceName, ClientConstructor> | undefined;

/** Client constructors for every service, loaded once per process. */
export function serviceConstructors(): Record<ServiceName, ClientConstructor> {
  if (!loaded) {
    const grpcObject = grpc.loadPackageDefinition(protoLoader.loadSync(SERVICE_FILES, LOADER_OPTIONS));
    const lookup = (fullName: string): ClientConstructor => {
      const found = fullName.split('.').reduce<unknown>((node, part) => (node as grpc.GrpcObject)?.[part], grpcObject);
      if (typeof found !== 'function') throw new Error(`service ${fullName} is not in the bundled protos`);
      return found as ClientConstructor;
    };
    const names = Object.keys(SERVICE_NAMES) as ServiceName[];
    loaded = Object.fromEntries(names.map((name) => [name, lookup(SERVICE_NAMES[name])])) as Record<
      ServiceName,
      ClientConstructor
    >;
  }
  return loaded;
}
