import { CardTokenSchema } from '@platform/api-model';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

// Messages here never quote the input: these fields hold card numbers and security codes.
const cardText = (max: number) =>
  z
    .string({ error: requiredOr('must be a string') })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

/** A card as typed by a buyer. Its number and CVV go to the vault and are never returned or logged. */
export const CardInput = z
  .object({
    cardHolderName: cardText(200).openapi({ example: 'ANA SOUZA' }),
    cardNumber: cardText(32).openapi({ example: '4111111111111111' }),
    cardCvv: cardText(8).openapi({ example: '123' }),
    cardExpirationDate: cardText(10).openapi({ description: 'MM/YYYY', example: '12/2030' }),
  })
  .openapi('CardInput');

export const CreateTokenBody = CardInput.openapi('CreateTokenRequest');

/** The token answer is the API model's schema. */
export { CardTokenSchema };

export type CardInputJson = z.infer<typeof CardInput>;
export type { CardTokenJson } from '@platform/api-model';
