import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { common } from '@platform/contracts';

/**
 * The closed set of error kinds. Every failure a service or the gateway raises is one of these; the
 * gRPC mapping lives here and the HTTP mapping lives once in the gateway, both as exhaustive switches,
 * so a new kind does not compile until it is mapped everywhere.
 */
export const ERROR_KINDS = [
  'validation', // 400: a request that breaks the schema; details name each field
  'unauthenticated', // 401
  'forbidden', // 403: authenticated, but the key does not reach this resource
  'not_found', // 404: unknown id or another client's id (never 403, so ids cannot be probed)
  'conflict', // 409: uniqueness (duplicate e-mail, endpoint) or a request still in flight
  'business_rule', // 422: a rule of the domain refuses the operation; carries businessCode
  'card_declined', // 402: the issuer or provider declined; carries declinedCode
  'unavailable', // 503: a dependency did not answer
  'internal', // 500: anything unexpected; carries an errorId that is in the log
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface FieldViolation {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  businessCode?: string;
  declinedCode?: string;
  key?: string;
  details?: FieldViolation[];
  errorId?: string;
  cause?: unknown;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly businessCode?: string;
  readonly declinedCode?: string;
  readonly key?: string;
  readonly details?: FieldViolation[];
  readonly errorId?: string;

  constructor(kind: ErrorKind, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.businessCode = options.businessCode;
    this.declinedCode = options.declinedCode;
    this.key = options.key ?? options.businessCode;
    this.details = options.details;
    this.errorId = options.errorId;
  }
}

export const errors = {
  validation: (message: string, details: FieldViolation[] = []) => new AppError('validation', message, { details }),
  notFound: (what: string, id?: string) =>
    new AppError('not_found', id === undefined ? `${what} not found` : `${what} ${id} not found`, { key: 'not_found' }),
  conflict: (message: string, key?: string) => new AppError('conflict', message, { key }),
  businessRule: (businessCode: string, message: string) => new AppError('business_rule', message, { businessCode }),
  declined: (declinedCode: string, message: string) => new AppError('card_declined', message, { declinedCode }),
  unauthenticated: (message = 'Invalid client id or API key') => new AppError('unauthenticated', message),
  forbidden: (message: string) => new AppError('forbidden', message),
  unavailable: (message: string) => new AppError('unavailable', message),
};

export function grpcStatusOf(kind: ErrorKind): GrpcStatus {
  switch (kind) {
    case 'validation':
      return GrpcStatus.INVALID_ARGUMENT;
    case 'unauthenticated':
      return GrpcStatus.UNAUTHENTICATED;
    case 'forbidden':
      return GrpcStatus.PERMISSION_DENIED;
    case 'not_found':
      return GrpcStatus.NOT_FOUND;
    case 'conflict':
      return GrpcStatus.ALREADY_EXISTS;
    case 'business_rule':
      return GrpcStatus.FAILED_PRECONDITION;
    case 'card_declined':
      return GrpcStatus.FAILED_PRECONDITION;
    case 'unavailable':
      return GrpcStatus.UNAVAILABLE;
    case 'internal':
      return GrpcStatus.INTERNAL;
    default: {
      const unmapped: never = kind;
      throw new Error(`unmapped error kind ${String(unmapped)}`);
    }
  }
}

const DETAIL_KEY = 'error-detail-bin';

export interface GrpcErrorPayload {
  code: GrpcStatus;
  details: string;
  metadata: Metadata;
}

/** Encodes an AppError as a gRPC error, with its detail in trailing metadata. */
export function toGrpcError(error: AppError): GrpcErrorPayload {
  const metadata = new Metadata();
  const detail = common.ErrorDetail.encode({
    kind: error.kind,
    message: error.message,
    businessCode: error.businessCode ?? '',
    declinedCode: error.declinedCode ?? '',
    key: error.key ?? '',
    details: error.details ?? [],
    errorId: error.errorId ?? '',
  }).finish();
  metadata.set(DETAIL_KEY, Buffer.from(detail));
  return { code: grpcStatusOf(error.kind), details: error.message, metadata };
}

function isErrorKind(value: string): value is ErrorKind {
  return (ERROR_KINDS as readonly string[]).includes(value);
}

function kindOfStatus(code: number): ErrorKind {
  switch (code) {
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.OUT_OF_RANGE:
      return 'validation';
    case GrpcStatus.UNAUTHENTICATED:
      return 'unauthenticated';
    case GrpcStatus.PERMISSION_DENIED:
      return 'forbidden';
    case GrpcStatus.NOT_FOUND:
      return 'not_found';
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.ABORTED:
      return 'conflict';
    case GrpcStatus.FAILED_PRECONDITION:
      return 'business_rule';
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 'unavailable';
    default:
      return 'internal';
  }
}

/** Decodes an error thrown by a gRPC client call back into the AppError the service raised. */
export function fromGrpcError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const e = error as { code?: number; details?: string; metadata?: Metadata; message?: string };
  if (typeof e?.code !== 'number') {
    return new AppError('internal', 'Internal error', { cause: error });
  }
  const raw = e.metadata?.get(DETAIL_KEY)[0];
  if (raw instanceof Buffer) {
    try {
      const d = common.ErrorDetail.decode(raw);
      const kind = isErrorKind(d.kind) ? d.kind : kindOfStatus(e.code);
      return new AppError(kind, d.message, {
        businessCode: d.businessCode || undefined,
        declinedCode: d.declinedCode || undefined,
        key: d.key || undefined,
        details: d.details.length > 0 ? d.details : undefined,
        errorId: d.errorId || undefined,
        cause: error,
      });
    } catch {
      // fall through to the status code
    }
  }
  const kind = kindOfStatus(e.code);
  const message = kind === 'unavailable' ? 'A platform service is unavailable' : (e.details ?? 'Internal error');
  return new AppError(kind, kind === 'internal' ? 'Internal error' : message, { cause: error });
}
