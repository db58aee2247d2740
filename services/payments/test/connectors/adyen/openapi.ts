import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';

/**
 * The vendored Adyen Checkout API v72 document (test/fixtures/adyen) as validators: a request or answer of a route
 * is checked against the schema the document gives that route, method and status, with ajv, and for fields the
 * document does not name anywhere in that schema (a renamed optional field would otherwise pass).
 */

type Schema = Record<string, unknown>;

const DOCUMENT_ID = 'adyen-checkout-v72';
const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'adyen', 'adyen-CheckoutService-v72.json'), 'utf8')) as Schema;

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
ajv.addSchema(document, DOCUMENT_ID);

function at(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
}

const routeOf = (route: string) => `#/paths/${route.replace(/~/g, '~0').replace(/\//g, '~1')}`;

function contentSchema(holder: string): string {
  const content = (at(holder) as Schema | undefined)?.content as Record<string, Schema> | undefined;
  if (!content?.['application/json']) throw new Error(`the document gives ${holder} no JSON body`);
  return `${holder}/content/application~1json/schema`;
}

/** The pointer of the schema of a route's request body. */
export function requestSchema(route: string, method = 'post'): string {
  return contentSchema(`${routeOf(route)}/${method}/requestBody`);
}

/** The pointer of the schema of a route's answer with `status` (throws when the document gives none). */
export function responseSchema(route: string, status: number, method = 'post'): string {
  const holder = `${routeOf(route)}/${method}/responses/${status}`;
  if (!at(holder)) throw new Error(`the document gives ${method} ${route} no ${status} answer`);
  return contentSchema(holder);
}

function resolved(schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) current = at(current.$ref) as Schema;
  return current;
}

interface Shape {
  properties: Map<string, Schema[]>;
  open: boolean;
  items: Schema[];
}

function gather(schemas: Schema[], shape: Shape = { properties: new Map(), open: false, items: [] }): Shape {
  for (const raw of schemas) {
    const schema = resolved(raw);
    for (const keyword of ['allOf', 'oneOf', 'anyOf'] as const) {
      if (Array.isArray(schema[keyword])) gather(schema[keyword] as Schema[], shape);
    }
    for (const [name, sub] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      shape.properties.set(name, [...(shape.properties.get(name) ?? []), sub]);
    }
    // A map (`additionalProperties` a schema: additionalData, metadata) names no fields.
    if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) shape.open = true;
    if (schema.items && typeof schema.items === 'object') shape.items.push(schema.items as Schema);
  }
  return shape;
}

/** The paths of fields of `value` that no (sub)schema of `schemas` names. */
function unknownFields(value: unknown, schemas: Schema[], path: string): string[] {
  const shape = gather(schemas);
  if (Array.isArray(value)) return value.flatMap((item, i) => unknownFields(item, shape.items, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null || shape.open) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const where = path ? `${path}.${key}` : key;
    if (!shape.properties.has(key)) return [where];
    return unknownFields(inner, shape.properties.get(key) ?? [], where);
  });
}

export interface Verdict {
  valid: boolean;
  errors: string[];
}

/** Checks `value` against the schema at `pointer`: the schema's rules, and no field the schema does not name. */
export function check(pointer: string, value: unknown): Verdict {
  const validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
  const valid = validate(value) as boolean;
  const errors = ((validate.errors ?? []) as ErrorObject[]).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`);
  const unknown = unknownFields(value, [{ $ref: pointer }], '');
  return { valid: valid && unknown.length === 0, errors: [...errors, ...unknown.map((field) => `${field} is not in the document's schema`)] };
}
