import type { settings as pb } from '@platform/contracts';
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
