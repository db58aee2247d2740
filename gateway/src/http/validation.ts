import type { FieldViolation } from '@platform/kit';
import type { z } from '../openapi/zod';

const parseOptions = {
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : undefined),
} as const;

/**
 * Parses one part of a request. Problems are added to `violations` with dotted field paths
 * (`document.number`); the part itself names a problem that has no path (a body that is not an object).
 */
export function parsePart<S extends z.ZodType>(schema: S, input: unknown, part: string, violations: FieldViolation[]): z.output<S> | undefined {
  const { result, nulled } = parseNullAsAbsent(schema, input);
  if (result.success) return result.data;
  // One item per field: the first problem zod found there (an integer past the safe range fails two checks).
  const named = new Set<string>();
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    const field = path || part;
    if (named.has(field)) continue;
    named.add(field);
    violations.push({ field, message: nulled.has(path) ? 'must not be null' : issue.message });
  }
  return undefined;
}

/**
 * A field sent as null means the field is absent (clients serialize unset fields as null): each null the schema
 * refuses is dropped and the input parsed again, so an optional field takes its default, and a required one is
 * refused as null. A schema that accepts null (nullable) keeps it. Nulls inside arrays are values, never dropped.
 */
function parseNullAsAbsent<S extends z.ZodType>(schema: S, input: unknown): { result: z.ZodSafeParseResult<z.output<S>>; nulled: Set<string> } {
  const nulled = new Set<string>();
  let candidate = input;
  let result = schema.safeParse(candidate, parseOptions);
  // Each round drops the nulls one level deeper at most (a refinement runs once its object parses); bounded anyway.
  for (let round = 0; !result.success && round < 8; round++) {
    const refused = result.error.issues.map((issue) => issue.path).filter((path) => isObjectFieldNull(candidate, path));
    if (refused.length === 0) break;
    for (const path of refused) {
      candidate = withoutField(candidate, path);
      nulled.add(path.map(String).join('.'));
    }
    result = schema.safeParse(candidate, parseOptions);
  }
  return { result, nulled };
}

type Path = readonly PropertyKey[];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `path` names a property of an object (not an array item) whose value is null. */
function isObjectFieldNull(root: unknown, path: Path): boolean {
  if (path.length === 0) return false;
  let parent = root;
  for (const key of path.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return false;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  const last = path[path.length - 1]!;
  return isPlainObject(parent) && typeof last === 'string' && Object.hasOwn(parent, last) && parent[last] === null;
}

/** A copy of `root` without the property at `path`; the input itself is left as it was sent. */
function withoutField(root: unknown, path: Path): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return root;
  if (Array.isArray(root)) return root.map((item, index) => (index === key ? withoutField(item, rest) : item));
  if (!isPlainObject(root) || typeof key !== 'string') return root;
  if (rest.length === 0) {
    const copy = { ...root };
    delete copy[key];
    return copy;
  }
  return { ...root, [key]: withoutField(root[key], rest) };
}

/**
 * A schema-level message for a wrong value. A schema's own message wins over the per-parse one above, so a missing
 * value is named here too.
 */
export function requiredOr(message: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'is required' : message);
}

// NUL, and a UTF-16 surrogate without its pair: PostgreSQL refuses the first in text and JSONB, and the second
// has no UTF-8 form, so neither can be stored or forwarded faithfully.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BAD_TEXT_ALL = new RegExp(BAD_TEXT.source, 'g');
const TEXT_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** Whether a string holds a character no text column can take. */
export function hasBadText(value: string): boolean {
  return BAD_TEXT.test(value);
}

/** A key as it can be quoted in an answer: each bad character becomes U+FFFD. */
function printable(key: string): string {
  return key.replace(BAD_TEXT_ALL, '\uFFFD');
}

/** Whether any string or object key of a value, at any depth, holds a character no text column can take. */
function holdsBadText(input: unknown): boolean {
  if (typeof input === 'string') return BAD_TEXT.test(input);
  if (input === null || typeof input !== 'object') return false;
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (BAD_TEXT.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        if (BAD_TEXT.test(key)) return true;
        const child = object[key];
        if (child !== null && (typeof child === 'object' || typeof child === 'string')) stack.push(child);
      }
    }
  }
  return false;
}

/**
 * Names every string (and object key) of a parsed request part that holds NUL or an unpaired surrogate, one
 * violation per field path, at any depth. The walk is iterative, so a deep value cannot exhaust the stack; a
 * part with no path of its own (a bad top-level string) is named by `part`.
 */
export function textViolations(input: unknown, part: string, violations: FieldViolation[]): void {
  // Nearly every request is clean: a walk that keeps no paths says so without an allocation per value.
  if (!holdsBadText(input)) return;
  // Paths are kept as links to the parent and spelled out only for a bad value, so a deep value costs linear time.
  interface Step {
    key: string;
    parent: Step | undefined;
  }
  const reported = new Set<string>();
  const report = (step: Step | undefined) => {
    const keys: string[] = [];
    for (let at = step; at; at = at.parent) keys.push(at.key);
    const field = keys.length > 0 ? keys.reverse().join('.') : part;
    if (reported.has(field)) return;
    reported.add(field);
    violations.push({ field, message: TEXT_MESSAGE });
  };
  const stack: Array<{ value: unknown; step: Step | undefined }> = [{ value: input, step: undefined }];
  while (stack.length > 0) {
    const { value, step } = stack.pop()!;
    if (typeof value === 'string') {
      if (hasBadText(value)) report(step);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], step: { key: String(i), parent: step } });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childStep = { key: printable(key), parent: step };
        if (hasBadText(key)) report(childStep);
        else stack.push({ value: child, step: childStep });
      }
    }
  }
}
