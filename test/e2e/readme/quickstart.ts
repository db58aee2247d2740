/**
 * The README's quickstart as a test reads it: the `bash` blocks between `<!-- quickstart -->` and
 * `<!-- /quickstart -->`, in order, and what the README says each `curl` call answers.
 *
 * A comment line `# → 201 {"status": "authorized"}` below a command states what the last `curl` before it answers:
 * an HTTP status, a JSON value the answer must contain (every key given, with that value; other keys may be there), or
 * both. A call with no such line must answer a status below 400. A line that starts with `until` or `while` polls: its
 * call may run several times (the same command each time), and what the README states is of its last answer.
 */
export interface Expectation {
  /** The 0-based index of the `curl` call, in the order the script runs them. */
  call: number;
  status?: number;
  body?: unknown;
  /** The README's line, for messages. */
  line: string;
}

export interface Quickstart {
  script: string;
  /** The `curl` calls of the script in order (a command line names curl once), `poll` where a loop repeats it. */
  calls: { poll: boolean }[];
  expectations: Expectation[];
}

const START = '<!-- quickstart -->';
const END = '<!-- /quickstart -->';
const CURL = /(^|[\s;(|&$])curl\s/g;
const ARROW = /^#\s*→\s*(.*)$/;

export function quickstartOf(readme: string): Quickstart {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the README has no ${START} ... ${END} section`);
  const section = readme.slice(start + START.length, end);
  const blocks = [...section.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  if (blocks.length === 0) throw new Error('the quickstart has no bash block');
  const calls: { poll: boolean }[] = [];
  const expectations: Expectation[] = [];
  for (const block of blocks) {
    for (const raw of block.split('\n')) {
      const line = raw.trim();
      const arrow = ARROW.exec(line);
      if (arrow) {
        if (calls.length === 0) throw new Error(`"${line}" comes before any curl call`);
        const expectation = expectationOf(arrow[1] ?? '');
        if (expectation) expectations.push({ call: calls.length - 1, line, ...expectation });
        continue;
      }
      if (line.startsWith('#')) continue;
      const poll = /^(until|while)\s/.test(line);
      const count = [...line.replace(/\s#.*$/, '').matchAll(CURL)].length;
      for (let i = 0; i < count; i += 1) calls.push({ poll });
    }
  }
  return { script: blocks.join('\n'), calls, expectations };
}

/** `201`, `{"a": 1}`, `201 {"a": 1} and some words`: a status, a JSON value, or both; words alone state nothing. */
function expectationOf(text: string): { status?: number; body?: unknown } | undefined {
  const status = /^(\d{3})\b\s*/.exec(text);
  const rest = status ? text.slice(status[0].length) : text;
  const body = leadingJson(rest);
  if (!status && body === undefined) return undefined;
  return { ...(status ? { status: Number(status[1]) } : {}), ...(body !== undefined ? { body } : {}) };
}

function leadingJson(text: string): unknown {
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  for (let end = text.length; end > 0; end -= 1) {
    const last = text[end - 1];
    if (last !== '}' && last !== ']') continue;
    try {
      return JSON.parse(text.slice(0, end));
    } catch {
      // a shorter prefix may be the JSON value
    }
  }
  throw new Error(`not JSON: ${text}`);
}

/** Where `actual` differs from what `expected` states (its keys, recursively; arrays element by element), or undefined. */
export function mismatch(expected: unknown, actual: unknown, at = '$'): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i += 1) {
      const found = mismatch(expected[i], actual[i], `${at}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const found = mismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/**
 * Which recorded calls are the README's calls: each call is one recorded call, a polling call the run of recorded calls
 * with the same arguments as its first. Returns, per README call, the index of its last recorded call.
 */
export function matchCalls(calls: { poll: boolean }[], recorded: string[]): number[] | string {
  const matched: number[] = [];
  let next = 0;
  for (const [i, call] of calls.entries()) {
    if (next >= recorded.length) return `the README's call ${i + 1} was not made (${recorded.length} calls recorded)`;
    if (call.poll) while (next + 1 < recorded.length && recorded[next + 1] === recorded[next]) next += 1;
    matched.push(next);
    next += 1;
  }
  if (next !== recorded.length) return `${recorded.length - next} calls more than the README's ${calls.length}`;
  return matched;
}
