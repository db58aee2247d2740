import { requireClientId } from '@platform/kit';
import { exampleEventOf } from '../domain/eventExamples';
import type { EventType } from '../domain/eventType';
import { PUBLIC_EVENT_TYPES } from '../domain/publicEvents';

/** Made once: the catalogue is fixed for the life of the process. */
let catalogue: readonly EventType[] | undefined;

function eventTypes(): readonly EventType[] {
  catalogue ??= PUBLIC_EVENT_TYPES.map((kind) => ({ name: kind.event, object: kind.object, description: kind.description, example: exampleEventOf(kind) }));
  return catalogue;
}

/** The public event catalogue, in catalogue order: the same for every client, which must still be a valid one. */
export function listEventTypes(input: { clientId: string }): readonly EventType[] {
  requireClientId(input.clientId);
  return eventTypes();
}
