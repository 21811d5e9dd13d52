// The SDK's types, all derived from the generated OpenAPI types: a field the API adds or drops changes them
// when the types are regenerated, and code reading a field the API does not send fails to compile.
import type { components, operations } from "./generated/openapi.ts";

export type Schemas = components["schemas"];
export type Namespace = Schemas["Namespace"];
export type Memory = Schemas["Memory"];
export type MemoryVersion = Schemas["MemoryVersion"];
export type Match = Schemas["Match"];
export type AskResult = Schemas["AskResult"];
export type Source = Schemas["Source"];
export type ForgetResult = Schemas["ForgetResult"];
export type Grant = Schemas["Grant"];
export type Document = Schemas["Document"];
export type DocumentText = Schemas["DocumentText"];
export type Entity = Schemas["Entity"];
export type EntityDetail = Schemas["EntityDetail"];
export type Event = Schemas["Event"];
export type EventFeed = Schemas["EventFeed"];
export type ExportLine = Schemas["ExportLine"];
export type ImportResult = Schemas["ImportResult"];
export type Pagination = Schemas["Pagination"];
export type CursorPagination = Schemas["CursorPagination"];
export type ErrorBody = Schemas["Error"];

type Operation = keyof operations;

/** The JSON body an operation takes. */
export type BodyOf<O extends Operation> = operations[O] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

/** The query parameters an operation takes (an empty object when it takes none). */
export type QueryOf<O extends Operation> = operations[O] extends { parameters: { query?: infer Query } }
  ? [Query] extends [never | undefined]
    ? Record<string, never>
    : NonNullable<Query>
  : Record<string, never>;

type SuccessEnvelope<O extends Operation> = operations[O] extends { responses: infer Responses }
  ? Responses extends { 200: { content: { "application/json": infer Envelope } } }
    ? Envelope
    : Responses extends { 201: { content: { "application/json": infer Envelope } } }
      ? Envelope
      : Responses extends { 202: { content: { "application/json": infer Envelope } } }
        ? Envelope
        : never
  : never;

/** The `data` of an operation's successful answer. */
export type DataOf<O extends Operation> = SuccessEnvelope<O> extends { data: infer Data } ? Data : never;

/** One page of a paged list: its items and where it stands. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** One page of a list paged by cursor (memories, entities); `pagination.nextCursor` is null on the last. */
export interface CursorPage<T> {
  data: T[];
  pagination: CursorPagination;
}
