export { MemoryGateway } from "./client.ts";
export type { CallOptions, ClientOptions } from "./transport.ts";
export type { NdjsonSource } from "./ndjson.ts";
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  MemoryGatewayError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnsupportedMediaTypeError,
  type ErrorDetail,
} from "./errors.ts";
export type * from "./types.ts";
export type { components, operations, paths } from "./generated/openapi.ts";
