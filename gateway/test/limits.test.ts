import {
  CLIENT_LIMITS,
  CLIENT_TOKEN_LIMITS,
  CUSTOMER_LIMITS,
  LINK_SETTINGS_LIMITS,
  LINK_SETTINGS_COLOR_FIELDS,
  ADDRESS_FIELDS,
  SUBSCRIPTION_SETTINGS_LIMITS,
  WEBHOOK_LIMITS,
} from '@platform/api-model';
import request from 'supertest';
import { buildGateway } from './helpers';
import { generatorDocument } from '../src/openapi/write';

/**
 * The OpenAPI document advertises exactly the limits of @platform/api-model, which the services enforce: every
 * limit of the groups below names where it applies in the document, and the keyword there must equal it.
 */

type Keyword = 'maxLength' | 'minLength' | 'maximum' | 'minimum' | 'maxItems' | 'minItems';

/** A place in the document: a component schema and a property path in it (`[]` is the array's items). */
interface Place {
  schema: string;
  path: string[];
  keyword: Keyword;
}

/** A limit that the document can only state in words (a file size): the text must name it. */
interface Mention {
  pointer: Array<string | number>;
  text: (limit: number) => string;
}

type Checks<L> = Record<keyof L, Array<Place | Mention>>;

const at = (schema: string, path: string, keyword: Keyword): Place => ({ schema, path: path.split('.'), keyword });

const CUSTOMER_CHECKS: Checks<typeof CUSTOMER_LIMITS> = {
  nameMaxLength: [at('CreateCustomerRequest', 'name', 'maxLength'), at('UpdateCustomerRequest', 'name', 'maxLength')],
  emailMaxLength: [at('CreateCustomerRequest', 'email', 'maxLength')],
  phoneNumberMinLength: [at('CreateCustomerRequest', 'phoneNumber', 'minLength'), at('UpdateCustomerRequest', 'phoneNumber', 'minLength')],
  phoneNumberMaxLength: [at('CreateCustomerRequest', 'phoneNumber', 'maxLength'), at('UpdateCustomerRequest', 'phoneNumber', 'maxLength')],
  documentNumberMaxLength: [at('DocumentInput', 'number', 'maxLength')],
  addressFieldMaxLength: ADDRESS_FIELDS.flatMap((field) => [at('AddressInput', field, 'maxLength'), at('AddressPatch', field, 'maxLength')]),
};

const WEBHOOK_CHECKS: Checks<typeof WEBHOOK_LIMITS> = {
  endpointMaxLength: [at('CreateWebhookRequest', 'endpoint', 'maxLength'), at('UpdateWebhookRequest', 'endpoint', 'maxLength')],
};

const CLIENT_CHECKS: Checks<typeof CLIENT_LIMITS> = {
  nameMaxLength: [at('CreateClientRequest', 'name', 'maxLength'), at('UpdateClientRequest', 'name', 'maxLength')],
};

const CLIENT_TOKEN_CHECKS: Checks<typeof CLIENT_TOKEN_LIMITS> = {
  maxScopes: [at('CreateClientTokenRequest', 'scope', 'maxItems')],
  maxLifetimeSeconds: [at('CreateClientTokenRequest', 'expires', 'maximum')],
};

const LINK_SETTINGS_CHECKS: Checks<typeof LINK_SETTINGS_LIMITS> = {
  colorMaxLength: LINK_SETTINGS_COLOR_FIELDS.map((field) => at('LinkSettingsRequest', field, 'maxLength')),
  companyUrlMaxLength: [at('LinkSettingsRequest', 'companyUrl', 'maxLength')],
  logoMaxBytes: (['post', 'patch'] as const).map((method) => ({
    pointer: ['paths', '/v1/settings', method, 'requestBody', 'content', 'multipart/form-data', 'schema', 'allOf', 1, 'properties', 'logo', 'description'],
    text: (limit: number) => `at most ${limit} bytes`,
  })),
};

const SUBSCRIPTION_SETTINGS_CHECKS: Checks<typeof SUBSCRIPTION_SETTINGS_LIMITS> = {
  retryPolicyMinSteps: [at('UpdateSubscriptionSettingsRequest', 'retryPolicy', 'minItems')],
  retryPolicyMaxSteps: [at('UpdateSubscriptionSettingsRequest', 'retryPolicy', 'maxItems')],
  retryDaysMin: [at('UpdateSubscriptionSettingsRequest', 'retryPolicy.[].daysAfterLastAttempt', 'minimum')],
  retryDaysMax: [at('UpdateSubscriptionSettingsRequest', 'retryPolicy.[].daysAfterLastAttempt', 'maximum')],
  statementDescriptorMaxLength: [at('UpdateSubscriptionSettingsRequest', 'statementDescriptor', 'maxLength')],
};

const GROUPS: Array<{ name: string; limits: Record<string, number>; checks: Record<string, Array<Place | Mention>> }> = [
  { name: 'CUSTOMER_LIMITS', limits: CUSTOMER_LIMITS, checks: CUSTOMER_CHECKS },
  { name: 'WEBHOOK_LIMITS', limits: WEBHOOK_LIMITS, checks: WEBHOOK_CHECKS },
  { name: 'CLIENT_LIMITS', limits: CLIENT_LIMITS, checks: CLIENT_CHECKS },
  { name: 'CLIENT_TOKEN_LIMITS', limits: CLIENT_TOKEN_LIMITS, checks: CLIENT_TOKEN_CHECKS },
  { name: 'LINK_SETTINGS_LIMITS', limits: LINK_SETTINGS_LIMITS, checks: LINK_SETTINGS_CHECKS },
  { name: 'SUBSCRIPTION_SETTINGS_LIMITS', limits: SUBSCRIPTION_SETTINGS_LIMITS, checks: SUBSCRIPTION_SETTINGS_CHECKS },
];

type Json = { [key: string]: Json } | Json[] | string | number | boolean | null;
let document: Json;

beforeAll(async () => {
  const res = await request(buildGateway().app).get('/v1/openapi.json');
  expect(res.status).toBe(200);
  // The public listener's document, and the admin listener's schemas beside it (clients are created there): the
  // document for client generators holds both.
  const served = res.body as { components: { schemas: Record<string, Json> } };
  const admin = generatorDocument() as unknown as { components: { schemas: Record<string, Json> } };
  document = { ...served, components: { ...served.components, schemas: { ...admin.components.schemas, ...served.components.schemas } } } as unknown as Json;
});

function child(node: Json | undefined, key: string | number): Json | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  return (node as Record<string | number, Json>)[key];
}

/** Follows `$ref`s to components, and `allOf` of one schema (a described reference). */
function deref(node: Json | undefined): Json | undefined {
  const ref = child(node, '$ref');
  if (typeof ref === 'string') return deref(child(child(child(document, 'components'), 'schemas'), ref.replace('#/components/schemas/', '')));
  return node;
}

function valueAt(place: Place): Json | undefined {
  let node = deref(child(child(child(document, 'components'), 'schemas'), place.schema));
  for (const step of place.path) {
    node = deref(step === '[]' ? child(node, 'items') : child(child(node, 'properties'), step));
  }
  return child(node, place.keyword);
}

function textAt(pointer: Array<string | number>): Json | undefined {
  return pointer.reduce<Json | undefined>((node, key) => child(node, key), document);
}

describe.each(GROUPS)('$name in the OpenAPI document', ({ limits, checks }) => {
  it('names where each limit applies', () => {
    expect(Object.keys(checks).sort()).toEqual(Object.keys(limits).sort());
    for (const places of Object.values(checks)) expect(places.length).toBeGreaterThan(0);
  });

  it.each(Object.keys(limits))('%s is what the document advertises', (key) => {
    const limit = limits[key]!;
    for (const place of checks[key] ?? []) {
      if ('pointer' in place) {
        expect({ at: place.pointer.join(' > '), text: textAt(place.pointer) }).toEqual({ at: place.pointer.join(' > '), text: expect.stringContaining(place.text(limit)) });
      } else {
        const where = `${place.schema}.${place.path.join('.')}.${place.keyword}`;
        expect({ where, value: valueAt(place) }).toEqual({ where, value: limit });
      }
    }
  });
});
