import { errors, requireClientId } from '@platform/kit';
import type { Flow } from '../domain/flow';
import type { MerchantContext } from '../../merchants/app/context';

export async function getFlow(ctx: Pick<MerchantContext, 'pool' | 'flows'>, input: { clientId: string; id: string }): Promise<Flow> {
  const clientId = requireClientId(input.clientId);
  const flow = await ctx.flows.findById(ctx.pool, clientId, input.id);
  if (!flow) throw errors.notFound('Flow', input.id);
  return flow;
}
