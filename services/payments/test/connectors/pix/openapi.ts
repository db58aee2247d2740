import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import { parse } from 'yaml';

/**
 * The vendored API Pix document (test/fixtures/bcb-pix) as validators: a request or answer of a route is checked
 * against the schema the document gives that route, method and status, with ajv, and for fields the document does
 * not know anywhere in that schema (its schemas leave additional properties open, so a renamed optional field
 * would otherwise pass).
 */

type Schema = Record<string, unknown>;

const DOCUMENT_ID = 'bcb-pix-api';
const document = parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'bcb-pix', 'bcb-pix-api-2.9.0.openapi.yaml'), 'utf8')) as Schema;

const ajv = new Ajv({ strict: false, allErrors: true });
// The formats the document uses, as RFC 3339 and RFC 3986 write them (OpenAPI's int32/int64 are ranges).
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$|^[^\s:/?#]+(\.[^\s:/?#]+)+(\/[^\s]*)?$/i);
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
ajv.addSchema(document, DOCUMENT_ID);

function at(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
}

/** Follows `$ref`s from `pointer` to where the value is. */
function follow(pointer: string): string {
  let current = pointer;
  for (let hops = 0; hops < 20; hops++) {
    const node = at(current) as Schema | undefined;
    if (!node || typeof node.$ref !== 'string') return current;
    current = node.$ref;
  }
  throw new Error(`too many $ref hops from ${pointer}`);
}

function contentSchema(pointer: string): string | undefined {
  const holder = follow(pointer);
  const content = (at(holder) as Schema | undefined)?.content as Record<string, Schema> | undefined;
  if (!content) return undefined;
  const type = Object.keys(content).find((t) => t.includes('json'));
  return type ? `${holder}/content/${type.replace(/\//g, '~1')}/schema` : undefined;
}

const routeOf = (route: string) => `#/paths/${route.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The pointer of the schema of a route's request body, or undefined when the document gives none. */
export function requestSchema(route: string, method: string): string | undefined {
  return contentSchema(`${routeOf(route)}/${method.toLowerCase()}/requestBody`);
}

/** The pointer of the schema of a route's answer with `status`; null for an answer the document gives no body. */
export function responseSchema(route: string, method: string, status: number): string | null {
  const responses = `${routeOf(route)}/${method.toLowerCase()}/responses`;
  if (!at(`${responses}/${status}`)) throw new Error(`the document gives ${method} ${route} no ${status} answer`);
  return contentSchema(`${responses}/${status}`) ?? null;
}

/** The schema of the body the PSP posts to the webhook (callback `listaPix`). */
export const WEBHOOK_PIX_BODY = '#/components/requestBodies/WebhookPixBody/content/application~1json/schema';

function resolved(schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) current = at(current.$ref) as Schema;
  return current;
}

interface Shape {
  properties: Map<string, Schema[]>;
  required: Set<string>;
  items: Schema[];
}

function gather(schemas: Schema[], shape: Shape = { properties: new Map(), required: new Set(), items: [] }): Shape {
  for (const raw of schemas) {
    const schema = resolved(raw);
    for (const keyword of ['allOf', 'oneOf', 'anyOf'] as const) {
      if (Array.isArray(schema[keyword])) gather(schema[keyword] as Schema[], shape);
    }
    for (const [name, sub] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      shape.properties.set(name, [...(shape.properties.get(name) ?? []), sub]);
    }
    for (const name of (schema.required as string[] | undefined) ?? []) shape.required.add(name);
    if (schema.items && typeof schema.items === 'object') shape.items.push(schema.items as Schema);
  }
  return shape;
}

/** The paths of fields of `value` that no (sub)schema of `schemas` names. */
function unknownFields(value: unknown, schemas: Schema[], path: string): string[] {
  const shape = gather(schemas);
  if (Array.isArray(value)) return shape.items.length === 0 ? [] : value.flatMap((item, i) => unknownFields(item, shape.items, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  if (shape.properties.size === 0 && shape.required.size === 0) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const where = path ? `${path}.${key}` : key;
    if (!shape.properties.has(key) && !shape.required.has(key)) return [where];
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
