import { readFileSync } from 'node:fs';
import path from 'node:path';
import { webhooks } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { listEventTypes } from '../../src/app/eventTypes';
import { EVENT_DESCRIPTIONS, PUBLIC_EVENT_NAMES, PUBLIC_EVENT_TYPES, publicKindOf } from '../../src/domain/publicEvents';
import { toEventTypeMessage } from '../../src/wire/webhookMessages';

const CLIENT_ID = '7bd83048-0bc4-4e53-8d54-b50d167929d7';

/** The rows `| \`subject\` | \`event\` | when |` of the catalogue's tables in docs/events.md. */
function documentedEvents(): Array<{ subject: string; event: string }> {
  const text = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'events.md'), 'utf8');
  return [...text.matchAll(/^\| `([a-z_.]+)` \| `([a-z_.]+)` \|/gm)].map((m) => ({ subject: m[1]!, event: m[2]! }));
}

describe('the event catalogue route', () => {
  it('lists exactly the event names docs/events.md documents, each under the subject the mapping gives it', () => {
    const documented = documentedEvents();
    expect(documented.map((d) => d.event).sort()).toEqual([...PUBLIC_EVENT_NAMES].sort());
    expect(new Set(documented.map((d) => d.event)).size).toBe(documented.length);
    for (const { subject, event } of documented) expect({ subject, event: publicKindOf(subject)?.event }).toEqual({ subject, event });
    expect(listEventTypes({ clientId: CLIENT_ID }).map((t) => t.name)).toEqual(PUBLIC_EVENT_NAMES);
  });

  it('describes every event of the catalogue, and nothing else', () => {
    expect(Object.keys(EVENT_DESCRIPTIONS).sort()).toEqual([...PUBLIC_EVENT_NAMES].sort());
    for (const type of PUBLIC_EVENT_TYPES) expect(type.description).toMatch(/^[A-Z].{10,}\.$/);
  });

  it('gives each event an example body of its own name and object, in the shape a receiver gets', () => {
    for (const type of listEventTypes({ clientId: CLIENT_ID })) {
      const { example } = type;
      expect(Object.keys(example)).toEqual(['id', 'createdAt', 'object', 'event', 'apiVersion', 'data']);
      expect(example).toMatchObject({ object: type.object, event: type.name, apiVersion: 1.1, createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
      expect(example.data).toEqual(expect.any(Object));
      // Optional values are null, never absent: JSON keeps every key.
      expect(JSON.parse(JSON.stringify(example))).toEqual(example);
      if (type.object === 'transaction') expect(example.data).toMatchObject({ status: type.name });
    }
  });

  it('keeps every example whole through the wire message (nulls, nested arrays, numbers)', () => {
    for (const type of listEventTypes({ clientId: CLIENT_ID })) {
      const decoded = webhooks.EventType.decode(webhooks.EventType.encode(toEventTypeMessage(type)).finish());
      expect(decoded).toEqual({ name: type.name, object: type.object, description: type.description, example: JSON.parse(JSON.stringify(type.example)) });
    }
  });

  it('refuses a malformed client id', () => {
    expect(() => listEventTypes({ clientId: 'nope' })).toThrow(AppError);
  });
});
