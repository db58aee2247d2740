import { randomUUID } from 'node:crypto';
import { eventually } from '@platform/testkit';
import { startCharges, type RunningCharges } from '../support/charges';

/** The builds a client may have running at once in this suite (the service's setting). */
const PER_CLIENT = 2;

let running: RunningCharges;
/** Builds held where they start, by report id, until the test lets them go. */
const held = new Map<string, () => void>();
let holding = true;
/** At each build's start: how many reports of its client were `processing` then (itself included). */
const processingAtStart: Array<{ clientId: string; id: string; processing: number }> = [];

beforeAll(async () => {
  running = await startCharges(
    { REPORT_BUILDS_PER_CLIENT: String(PER_CLIENT) },
    {
      beforeReportBuild: async (report) => {
        const { rows } = await running.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM reports WHERE client_id = $1 AND status = 'processing'", [report.clientId]);
        processingAtStart.push({ ...report, processing: rows[0]!.n });
        if (holding) await new Promise<void>((resolve) => held.set(report.id, resolve));
      },
    },
  );
});

afterAll(async () => {
  holding = false;
  for (const release of held.values()) release();
  await running.stop();
});

const create = (clientId: string) => running.client.createReport({ clientId, type: 'transactions', fields: [], filters: { transactionStatus: [], paymentMethod: [] } });
const statusOf = async (clientId: string, id: string) => (await running.client.getReport({ clientId, id })).status;

describe('reports: builds per client', () => {
  it("runs at most the configured number of a client's builds at once, queues the rest as `created`, and does not hold up another client", async () => {
    const busy = randomUUID();
    const other = randomUUID();
    const queued: string[] = [];
    for (let i = 0; i < 5; i += 1) queued.push((await create(busy)).id);
    const single = (await create(other)).id;

    // The other client's build starts while the busy client's builds are held.
    await eventually(async () => (held.has(single) && queued.filter((id) => held.has(id)).length === PER_CLIENT ? true : undefined), 'builds of both clients started', {
      timeoutMs: 15_000,
      intervalMs: 50,
    });
    const started = queued.filter((id) => held.has(id));
    const waiting = queued.filter((id) => !held.has(id));
    expect(await Promise.all(started.map((id) => statusOf(busy, id)))).toEqual(Array(PER_CLIENT).fill('processing'));
    expect(await Promise.all(waiting.map((id) => statusOf(busy, id)))).toEqual(Array(queued.length - PER_CLIENT).fill('created'));

    // Let everything go: every report ends, and no build ever started beside more than the limit of its client's.
    holding = false;
    for (const release of held.values()) release();
    await eventually(
      async () => {
        const statuses = await Promise.all([...queued.map((id) => statusOf(busy, id)), statusOf(other, single)]);
        return statuses.every((s) => s === 'empty') ? statuses : undefined;
      },
      'every report built',
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const busyStarts = processingAtStart.filter((s) => s.clientId === busy);
    expect(busyStarts.map((s) => s.id).sort()).toEqual([...queued].sort());
    expect(Math.max(...busyStarts.map((s) => s.processing))).toBe(PER_CLIENT);
  });
});
