/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with nested keys in brackets
 * (`payment_method_data[card][number]=...`, `expand[0]=latest_charge`), as its API reference and its official
 * libraries send them; the same encoding in the query string of a GET.
 */

export type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

/** `a[b][c]=v` pairs -> nested objects (array indices stay keys: `expand[0]` is `{expand: {"0": ...}}`). */
export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  if (text === '') return root;
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!match) continue;
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node: FormObject = root;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      const next = node[key];
      if (typeof next === 'object') {
        node = next;
      } else {
        const created: FormObject = {};
        node[key] = created;
        node = created;
      }
    }
    node[path[path.length - 1]!] = value;
  }
  return root;
}

/** A string field, or undefined. */
export function text(form: FormObject | undefined, key: string): string | undefined {
  const value = form?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** A nested object field, or undefined. */
export function object(form: FormObject | undefined, key: string): FormObject | undefined {
  const value = form?.[key];
  return typeof value === 'object' ? value : undefined;
}

/** An array field (`key[0]`, `key[1]`, ...) of strings. */
export function list(form: FormObject | undefined, key: string): string[] {
  const value = form?.[key];
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object') return [];
  return Object.keys(value)
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => value[k])
    .filter((v): v is string => typeof v === 'string');
}

/** The same parameters, whatever order they came in (idempotent replays compare these). */
export function canonicalForm(text: string): string {
  return [...new URLSearchParams(text)].map(([k, v]) => `${k}=${v}`).sort().join('&');
}
