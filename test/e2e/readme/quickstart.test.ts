import { matchCalls, mismatch, quickstartOf } from './quickstart';

const fence = '```';
const readme = [
  '# Title',
  `${fence}bash`,
  'curl -sS "$BASE/not-in-the-section"',
  fence,
  '<!-- quickstart -->',
  `${fence}sh`,
  'npm start   # not bash: not run',
  fence,
  `${fence}bash`,
  'X=$(curl -sS "$BASE/v1/customers" -d \'{"a": 1}\' | get id)',
  '# → 201 {"name": "Ana", "document": {"type": "cpf"}} and some words',
  'curl -sS "$BASE/v1/customers/$X"   # curl in a comment: curl -x',
  '# → 404',
  '# → words alone state nothing',
  fence,
  `${fence}bash`,
  'until curl -sS "$BASE/v1/balance" | grep 1 > /dev/null; do sleep 0.2; done',
  '# → {"receivable": 1}',
  fence,
  '<!-- /quickstart -->',
].join('\n');

describe('the README quickstart as the test reads it', () => {
  it('takes the bash blocks of the section, counts its curl calls and reads what each answers', () => {
    const quickstart = quickstartOf(readme);
    expect(quickstart.script).not.toContain('not-in-the-section');
    expect(quickstart.script).not.toContain('npm start');
    expect(quickstart.calls).toEqual([{ poll: false }, { poll: false }, { poll: true }]);
    expect(quickstart.expectations.map(({ call, status, body }) => ({ call, status, body }))).toEqual([
      { call: 0, status: 201, body: { name: 'Ana', document: { type: 'cpf' } } },
      { call: 1, status: 404, body: undefined },
      { call: 2, status: undefined, body: { receivable: 1 } },
    ]);
  });

  it('refuses a README without the section, and a stated answer before any call', () => {
    expect(() => quickstartOf('# nothing')).toThrow(/no <!-- quickstart -->/);
    expect(() => quickstartOf(`<!-- quickstart -->\n${fence}bash\n# → 200\n${fence}\n<!-- /quickstart -->`)).toThrow(/before any curl/);
  });

  it('matches recorded calls to the README calls, a poll taking every repetition of its command', () => {
    const calls = [{ poll: false }, { poll: true }, { poll: false }];
    expect(matchCalls(calls, ['a', 'b', 'b', 'b', 'c'])).toEqual([0, 3, 4]);
    expect(matchCalls(calls, ['a', 'b', 'c'])).toEqual([0, 1, 2]);
    expect(matchCalls(calls, ['a', 'b'])).toMatch(/call 3 was not made/);
    expect(matchCalls(calls, ['a', 'b', 'c', 'd'])).toMatch(/1 calls more/);
  });

  it('compares only what the README states: keys given, arrays item by item', () => {
    expect(mismatch({ status: 'paid' }, { status: 'paid', id: 'x' })).toBeUndefined();
    expect(mismatch({ status: 'paid' }, { status: 'failed' })).toBe('$.status: expected "paid", got "failed"');
    expect(mismatch({ items: [{ amount: 1 }] }, { items: [{ amount: 1, id: 'a' }] })).toBeUndefined();
    expect(mismatch({ items: [{ amount: 1 }] }, { items: [] })).toBe('$.items: expected 1 items, got 0');
    expect(mismatch({ a: { b: 2 } }, { a: null })).toMatch(/\$\.a: expected an object/);
  });
});
