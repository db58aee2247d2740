import { PlaceQueue } from '../../src/app/placeQueue';

/** The queue of buyers waiting for a place of a session in one process: woken in the order they came. */
const LONG = 60_000;

describe('the place queue', () => {
  it('wakes the buyer waiting longest for each place given back, and only for its own session', async () => {
    const queue = new PlaceQueue();
    const woken: string[] = [];
    const tickets = ['ana', 'bia', 'caio'].map((name) => ({ name, ticket: queue.join('s1') }));
    const other = queue.join('s2');
    const sleeping = tickets.map(({ name, ticket }) => ticket.wait(LONG).then((byPlace) => woken.push(`${name}:${byPlace}`)));
    const otherSleeping = other.wait(LONG);
    expect(queue.waiting('s1')).toBe(3);

    queue.released('s1');
    await sleeping[0];
    expect(woken).toEqual(['ana:true']);
    queue.released('s1', 2);
    await Promise.all(sleeping);
    expect(woken).toEqual(['ana:true', 'bia:true', 'caio:true']);

    for (const { ticket } of tickets) ticket.leave();
    expect(queue.waiting('s1')).toBe(0);
    queue.released('s2');
    await expect(otherSleeping).resolves.toBe(true);
    other.leave();
    other.leave();
    expect(queue.waiting('s2')).toBe(0);
  });

  it('keeps the turn of a buyer who looks again: the first in line is woken first whenever it sleeps', async () => {
    const queue = new PlaceQueue();
    const first = queue.join('s');
    const second = queue.join('s');
    const secondSleeps = second.wait(LONG);
    // The first buyer is awake (trying for a place): the place goes to the one asleep.
    queue.released('s');
    await expect(secondSleeps).resolves.toBe(true);
    const firstSleeps = first.wait(LONG);
    const secondAgain = second.wait(LONG);
    queue.released('s');
    await expect(firstSleeps).resolves.toBe(true);
    queue.released('s');
    await expect(secondAgain).resolves.toBe(true);
  });

  it('stops waiting when the caller is gone, at once when it is gone already', async () => {
    const queue = new PlaceQueue();
    const ticket = queue.join('s');
    const gone = new AbortController();
    const sleeping = ticket.wait(LONG, gone.signal);
    gone.abort();
    await expect(sleeping).resolves.toBe(false);
    await expect(ticket.wait(LONG, gone.signal)).resolves.toBe(false);
    ticket.leave();
  });
});
