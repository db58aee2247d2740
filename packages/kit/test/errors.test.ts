import { status } from '@grpc/grpc-js';
import { AppError, ERROR_KINDS, fromGrpcError, grpcStatusOf, toGrpcError } from '../src';

describe('error kinds', () => {
  it.each(ERROR_KINDS)('%s survives the trip through gRPC with every field', (kind) => {
    const original = new AppError(kind, `message of ${kind}`, {
      businessCode: 'some_rule',
      declinedCode: 'insufficient_funds',
      key: 'some_key',
      details: [{ field: 'document.number', message: 'must be 11 digits' }],
      errorId: 'e-1',
    });
    const wire = toGrpcError(original);
    expect(wire.code).toBe(grpcStatusOf(kind));
    const back = fromGrpcError({ code: wire.code, details: wire.details, metadata: wire.metadata });
    expect(back.kind).toBe(kind);
    expect(back.message).toBe(`message of ${kind}`);
    expect(back.businessCode).toBe('some_rule');
    expect(back.declinedCode).toBe('insufficient_funds');
    expect(back.key).toBe('some_key');
    expect(back.details).toEqual([{ field: 'document.number', message: 'must be 11 digits' }]);
    expect(back.errorId).toBe('e-1');
  });

  it('maps a bare gRPC status without detail to a kind, hiding internal messages', () => {
    expect(fromGrpcError({ code: status.UNAVAILABLE, details: 'connect ECONNREFUSED' }).kind).toBe('unavailable');
    const internal = fromGrpcError({ code: status.INTERNAL, details: 'stack trace here' });
    expect(internal.kind).toBe('internal');
    expect(internal.message).toBe('Internal error');
    expect(fromGrpcError(new Error('boom')).kind).toBe('internal');
  });
});
