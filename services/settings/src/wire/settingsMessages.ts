import type { settings as pb } from '@platform/contracts';
import type { IdempotencyCodec } from '@platform/kit';
import type { ClientAccount } from '../domain/clients';
import type { LinkSettings } from '../domain/linkSettings';
import type { Logo } from '../domain/logos';
import type { SubscriptionSettings } from '../domain/subscriptionSettings';

export function toClientMessage(client: ClientAccount): pb.Client {
  return {
    id: client.id,
    name: client.name,
    environment: client.environment,
    prepaymentEnabled: client.prepaymentEnabled,
    createdAt: client.createdAt,
    updatedAt: client.updatedAt,
  };
}

export function toLinkSettingsMessage(settings: LinkSettings): pb.LinkSettings {
  return {
    id: settings.id,
    clientId: settings.clientId,
    merchantId: settings.merchantId ?? '',
    mainColor: settings.mainColor ?? '',
    secondaryColor: settings.secondaryColor ?? '',
    attentionColor: settings.attentionColor ?? '',
    errorColor: settings.errorColor ?? '',
    successColor: settings.successColor ?? '',
    backgroundColor: settings.backgroundColor ?? '',
    companyUrl: settings.companyUrl ?? '',
    logoId: settings.logoId ?? '',
    createdAt: settings.createdAt,
    updatedAt: settings.updatedAt,
  };
}

export function toLogoMessage(logo: Logo): pb.Logo {
  return { id: logo.id, contentType: logo.contentType, data: logo.data };
}

export function toSubscriptionSettingsMessage(settings: SubscriptionSettings): pb.SubscriptionSettings {
  return {
    clientId: settings.clientId,
    retryPolicy: settings.retryPolicy.map((step) => ({ daysAfterLastAttempt: step.daysAfterLastAttempt })),
    cancelAfterAllRetries: settings.cancelAfterAllRetries,
    statementDescriptor: settings.statementDescriptor,
    createdAt: settings.createdAt,
    updatedAt: settings.updatedAt,
  };
}

/**
 * The idempotency record of a link settings creation keeps the answer as JSON with its dates as ISO strings (the
 * records already stored are in that form), so a replay answers what the first call did.
 */
export const linkSettingsCodec: IdempotencyCodec<LinkSettings> = {
  encode: (settings) => Buffer.from(JSON.stringify(settings)),
  decode: (bytes) => {
    const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as LinkSettings & { createdAt: string; updatedAt: string };
    return { ...raw, createdAt: new Date(raw.createdAt), updatedAt: new Date(raw.updatedAt) };
  },
};
