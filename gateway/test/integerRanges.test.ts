import { AMOUNT_MAX, INT32_MAX } from '@platform/api-model';
import request from 'supertest';
import { buildGateway } from './helpers';

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
}
interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Every integer of every request (parameters and bodies), with the name of its field. */
function requestIntegers(doc: Document): Array<{ where: string; name: string; schema: Schema }> {
  const found: Array<{ where: string; name: string; schema: Schema }> = [];
  const walk = (schema: Schema | undefined, where: string, name: string, seen: Set<string>) => {
    if (!schema) return;
    if (schema.$ref) {
      if (seen.has(schema.$ref)) return;
      walk(doc.components.schemas[schema.$ref.split('/').pop()!], where, name, new Set([...seen, schema.$ref]));
      return;
    }
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('integer')) found.push({ where, name, schema });
    for (const [child, value] of Object.entries(schema.properties ?? {})) walk(value, `${where}.${child}`, child, seen);
    walk(schema.items, `${where}[]`, name, seen);
    if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${where}{}`, name, seen);
    for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(variant, where, name, seen);
  };
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const op = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) walk(parameter.schema, `${op} ${parameter.in} ${parameter.name}`, parameter.name, new Set());
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) walk(content.schema, `${op} body(${type})`, 'body', new Set());
    }
  }
  return found;
}

describe('integer ranges in the OpenAPI document', () => {
  it('states a minimum and a maximum for every integer a request takes, within the column that stores it', async () => {
    const gw = buildGateway();
    const doc = (await request(gw.app).get('/v1/openapi.json')).body as Document;
    const integers = requestIntegers(doc);
    expect(integers.length).toBeGreaterThanOrEqual(30);
    const problems: string[] = [];
    for (const { where, name, schema } of integers) {
      // Amounts are BIGINT (within JavaScript's exact integers); every other integer is an INTEGER column or an int32.
      const bound = /amount/i.test(name) ? AMOUNT_MAX : INT32_MAX;
      if (schema.maximum === undefined || schema.maximum > bound) problems.push(`${where}: maximum ${schema.maximum} (at most ${bound})`);
      if (schema.minimum === undefined || schema.minimum < -bound - 1) problems.push(`${where}: minimum ${schema.minimum}`);
    }
    expect(problems).toEqual([]);
  });

  it('finds an integer without a maximum (the check above can fail)', () => {
    const doc: Document = {
      paths: { '/x': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } } } },
      components: { schemas: { X: { type: 'object', properties: { count: { type: 'integer', minimum: 0 } } } } },
    };
    expect(requestIntegers(doc)).toEqual([{ where: 'POST /x body(application/json).count', name: 'count', schema: { type: 'integer', minimum: 0 } }]);
  });
});
