/**
 * The little of JSON Schema (as the gateway's OpenAPI 3.1 document writes it) that the hostile-input suite needs:
 * resolving $ref, a plausible sample of a schema, every field path of a schema, and checking an answer against it.
 */

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  example?: unknown;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type FieldPath = Array<string | number>;

export class Schemas {
  constructor(private readonly doc: OpenApi) {}

  deref(schema: JsonSchema | undefined): JsonSchema {
    let current = schema ?? {};
    for (let hops = 0; current.$ref && hops < 20; hops++) {
      const name = current.$ref.split('/').pop()!;
      const target = this.doc.components.schemas[name];
      if (!target) throw new Error(`unresolved ${current.$ref}`);
      // A $ref with siblings (a description) keeps the target's meaning.
      const { $ref: _ref, ...rest } = current;
      current = { ...target, ...rest };
    }
    return current;
  }

  /** The non-null types a schema allows. */
  typesOf(schema: JsonSchema): string[] {
    const s = this.deref(schema);
    if (s.type) return (Array.isArray(s.type) ? s.type : [s.type]).filter((t) => t !== 'null');
    if (s.enum || s.const !== undefined) return ['string'];
    return [];
  }

  /** The variants of a union, each an object schema of its own. */
  variantsOf(schema: JsonSchema): JsonSchema[] {
    const s = this.deref(schema);
    const union = s.oneOf ?? s.anyOf;
    return union ? union.map((v) => this.deref(v)).filter((v) => !(v.type === 'null')) : [];
  }

  /**
   * A value the schema is likely to accept: examples, defaults and enums first, then something of the type;
   * `override` gives known-good values by field name (ids of records that exist, valid document numbers).
   */
  sample(schema: JsonSchema | undefined, path: FieldPath, override: (path: FieldPath) => Json | undefined, depth = 0): Json {
    const given = override(path);
    if (given !== undefined) return given;
    const s = this.deref(schema);
    if (s.const !== undefined) return s.const as Json;
    if (s.example !== undefined) return s.example as Json;
    if (s.default !== undefined) return s.default as Json;
    if (s.enum?.length) return s.enum[0] as Json;
    const variants = this.variantsOf(s);
    if (variants.length > 0) return this.sample(variants[0], path, override, depth + 1);
    if (s.allOf?.length) return this.sample(s.allOf[0], path, override, depth + 1);
    const type = this.typesOf(s)[0];
    switch (type) {
      case 'object': {
        const out: Record<string, Json> = {};
        if (depth > 12) return out;
        for (const name of s.required ?? []) out[name] = this.sample(s.properties?.[name], [...path, name], override, depth + 1);
        return out;
      }
      case 'array':
        return (s.minItems ?? 0) > 0 ? [this.sample(s.items, [...path, 0], override, depth + 1)] : [];
      case 'integer':
      case 'number':
        return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1);
      case 'boolean':
        return true;
      case 'string':
        return sampleString(s);
      default:
        return 'x';
    }
  }

  /**
   * Every field of a schema, at any depth: each with the path, its schema, and the values to set first so that the
   * field exists (the variant of a union it belongs to, the item of an array).
   */
  fields(schema: JsonSchema | undefined, override: (path: FieldPath) => Json | undefined): Field[] {
    const out: Field[] = [];
    const walk = (node: JsonSchema | undefined, path: FieldPath, prelude: Array<[FieldPath, Json]>, seen: Set<string>, depth: number) => {
      if (!node || depth > 10) return;
      const ref = node.$ref;
      if (ref && seen.has(ref)) return;
      const nextSeen = ref ? new Set([...seen, ref]) : seen;
      const s = this.deref(node);
      if (path.length > 0) out.push({ path, schema: s, prelude });
      const variants = this.variantsOf(s);
      variants.forEach((variant) => {
        const setVariant: [FieldPath, Json] = [path, this.sample(variant, path, override)];
        walk(variant, path, [...prelude, setVariant], nextSeen, depth + 1);
      });
      for (const [name, child] of Object.entries(s.properties ?? {})) walk(child, [...path, name], prelude, nextSeen, depth + 1);
      if (s.items && this.typesOf(s).includes('array')) {
        const setItem: [FieldPath, Json] = [path, [this.sample(s.items, [...path, 0], override)]];
        walk(s.items, [...path, 0], [...prelude, setItem], nextSeen, depth + 1);
      }
    };
    walk(schema, [], [], new Set(), 0);
    // A union walked variant by variant names the union itself more than once: keep the first.
    const seenPaths = new Set<string>();
    return out.filter((f) => {
      const key = `${JSON.stringify(f.path)}|${JSON.stringify(f.prelude.map(([p]) => p))}|${f.schema.properties ? Object.keys(f.schema.properties).join() : ''}`;
      if (seenPaths.has(key)) return false;
      seenPaths.add(key);
      return true;
    });
  }

  /** Problems of a value against a schema (the subset the document uses); empty when it conforms. */
  check(schema: JsonSchema | undefined, value: unknown, at = '$', depth = 0): string[] {
    if (!schema || depth > 40) return [];
    const s = this.deref(schema);
    if (s.const !== undefined && value !== s.const) return [`${at}: expected ${JSON.stringify(s.const)}`];
    if (s.enum && !s.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`];
    const union = s.oneOf ?? s.anyOf;
    if (union) {
      const results = union.map((variant) => this.check(variant, value, at, depth + 1));
      if (!results.some((r) => r.length === 0)) return [`${at}: matches no variant (${results.map((r) => r[0]).join('; ')})`];
    }
    for (const part of s.allOf ?? []) {
      const problems = this.check(part, value, at, depth + 1);
      if (problems.length > 0) return problems;
    }
    if (s.type === undefined) return [];
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const ok = types.some((t) => t === actual || (t === 'integer' && Number.isInteger(value)) || (t === 'number' && actual === 'number'));
    if (!ok) return [`${at}: expected ${types.join('|')}, got ${actual}`];
    if (actual === 'object') {
      const object = value as Record<string, unknown>;
      const problems: string[] = [];
      for (const name of s.required ?? []) if (!(name in object)) problems.push(`${at}.${name}: missing`);
      for (const [name, child] of Object.entries(s.properties ?? {})) {
        if (name in object) problems.push(...this.check(child, object[name], `${at}.${name}`, depth + 1));
      }
      return problems;
    }
    if (actual === 'array' && s.items) return (value as unknown[]).flatMap((item, i) => this.check(s.items, item, `${at}[${i}]`, depth + 1));
    return [];
  }
}

export interface Field {
  path: FieldPath;
  schema: JsonSchema;
  prelude: Array<[FieldPath, Json]>;
}

function sampleString(s: JsonSchema): string {
  switch (s.format) {
    case 'email':
      return 'hostile@example.com';
    case 'date':
      return '2031-01-15';
    case 'date-time':
      return '2031-01-15T10:00:00.000Z';
    case 'uri':
    case 'url':
      return 'https://hooks.example.com/receiver';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    default: {
      const length = Math.max(1, Math.min(s.minLength ?? 1, s.maxLength ?? 8));
      return 'hostile'.padEnd(length, 'x').slice(0, Math.max(length, Math.min(7, s.maxLength ?? 7)));
    }
  }
}

/** A copy of `target` with `value` at `path`, creating objects and arrays on the way. */
export function setAt(target: Json, path: FieldPath, value: Json): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const array = Array.isArray(target) ? [...target] : [];
    array[head] = setAt(array[head] ?? {}, rest, value);
    return array;
  }
  const object = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  object[head!] = setAt(object[head!] ?? {}, rest, value);
  return object;
}
