import { SANDBOX_CARDS, SAMPLE } from '../../openapi/samples';
import type { z } from '../../openapi/zod';
import type { CardTokenSchema, CreateTokenBody } from './schemas';

export const CREATE_TOKEN: z.input<typeof CreateTokenBody> = { ...SANDBOX_CARDS.approved };

export const DECLINED_TOKEN: z.input<typeof CreateTokenBody> = { ...SANDBOX_CARDS.declined };

export const CARD_TOKEN: z.input<typeof CardTokenSchema> = { tokenId: SAMPLE.tokenId, expiresAt: '2026-03-02T14:35:31.938Z' };
