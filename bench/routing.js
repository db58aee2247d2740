/**
 * `npm run bench:routing`: replays BENCH_ROUTING_CHARGES simulated charges (default 100,000) over three simulated
 * providers, in memory, and compares in one run:
 *
 * - (a) priority only: the route in the order given, moving on only after a technical failure (no answer, unreachable);
 * - (b) cascading alone: the same order, also moving on after a soft decline, at most 2 extra attempts;
 * - (c) success-rate routing with cascading: the route ordered by the payments service's own success-rate code
 *   (services/payments/dist: routeProviders with a `success_rate` flow rule, orderBySuccessRate, appendOutcomes,
 *   with the service's default settings), then cascading as in (b).
 *
 * The world: charges arrive 20 a second on a simulated clock. ACQ_A, first in the given order, approves 88 % at the
 * start and drifts down to 76 %; ACQ_B drifts up from 80 % to 90 %; ACQ_C stays at 84 %. Half of the declines are
 * soft (another provider may approve the charge), half hard (no provider would). ACQ_A is down (every attempt a
 * technical failure) from charge 40,000 to charge 52,000 (10 minutes). Every strategy meets the same world: each
 * charge's draw at each provider comes from a seeded generator (BENCH_ROUTING_SEED), so the figures are the same
 * on every run.
 *
 * Prints, per strategy, the approval rate, the provider attempts per charge, the attempts lost on the failing
 * provider during its outage, and for (c) how many charges it took to move traffic away from the failing provider
 * and, after it came back, to take it back in.
 */
const path = require('node:path');

const domain = path.resolve(__dirname, '..', 'services', 'payments', 'dist', 'modules', 'charges', 'domain');
const { routeProviders } = require(path.join(domain, 'routing.js'));
const { appendOutcomes, DEFAULT_SUCCESS_RATE_SETTINGS, EMPTY_OUTCOMES, eliminationOf, orderBySuccessRate } = require(path.join(domain, 'successRate.js'));

const CHARGES = Number(process.env.BENCH_ROUTING_CHARGES ?? 100_000);
const SEED = Number(process.env.BENCH_ROUTING_SEED ?? 20260301);
const ARRIVAL_MS = 50;
const OUTAGE = { from: Math.round(CHARGES * 0.4), to: Math.round(CHARGES * 0.52) };
const SOFT_SHARE = 0.5;
const MAX_EXTRA_ATTEMPTS = 2;
const START = Date.UTC(2026, 2, 1, 12, 0, 0);

const PROVIDERS = [
  { id: 'acq-a', type: 'ACQ_A', priority: 1, from: 0.88, to: 0.76 },
  { id: 'acq-b', type: 'ACQ_B', priority: 2, from: 0.8, to: 0.9 },
  { id: 'acq-c', type: 'ACQ_C', priority: 3, from: 0.84, to: 0.84 },
];
const FAILING = 'acq-a';

/** mulberry32: a small seeded generator, enough for a reproducible simulation. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The world's answers: for each charge, one draw per provider (approve?) and one per charge (soft decline?). */
function world() {
  const random = generator(SEED);
  const draws = new Float64Array(CHARGES * PROVIDERS.length);
  const soft = new Float64Array(CHARGES);
  for (let i = 0; i < CHARGES; i += 1) {
    for (let p = 0; p < PROVIDERS.length; p += 1) draws[i * PROVIDERS.length + p] = random();
    soft[i] = random();
  }
  return { draws, soft };
}

function answer(w, i, providerIndex) {
  const provider = PROVIDERS[providerIndex];
  if (provider.id === FAILING && i >= OUTAGE.from && i < OUTAGE.to) return 't';
  const rate = provider.from + ((provider.to - provider.from) * i) / CHARGES;
  if (w.draws[i * PROVIDERS.length + providerIndex] < rate) return 'a';
  // A hard decline is the card's: no provider would approve it. A soft one is the provider's.
  return w.soft[i] < SOFT_SHARE ? 'soft' : 'hard';
}

/** One flow for the three providers: its only rule orders them by success rate in (c), as given otherwise. */
const flowOf = (mode) => ({ rules: [{ route: PROVIDERS.map((p) => p.id), mode }], defaultRoute: PROVIDERS.map((p) => p.id) });

function run(strategy, w) {
  const settings = DEFAULT_SUCCESS_RATE_SETTINGS;
  const outcomes = new Map(PROVIDERS.map((p) => [p.id, EMPTY_OUTCOMES]));
  const flow = flowOf(strategy === 'success_rate' ? 'success_rate' : 'priority');
  const cascades = strategy !== 'priority';
  const stats = { approved: 0, attempts: 0, lostOnFailing: 0, firstOnFailingDuringOutage: 0, takenOutAt: null, backInAt: null, explored: 0 };
  for (let i = 0; i < CHARGES; i += 1) {
    const chargeId = `bench-charge-${i}`;
    const now = new Date(START + i * ARRIVAL_MS);
    let route = routeProviders(PROVIDERS, flow, { chargeId, amount: 10_000, currency: 'BRL', installments: 1, paymentType: 'credit', cardBrand: 'visa' });
    if (route.mode === 'success_rate') {
      const order = orderBySuccessRate(
        route.providers.map((p) => ({ provider: p, label: p.type, outcomes: outcomes.get(p.id) })),
        chargeId,
        now,
        settings,
      );
      if (order.explored) stats.explored += 1;
      route = { ...route, providers: order.providers };
      const failingState = eliminationOf(outcomes.get(FAILING), now, settings);
      if (i >= OUTAGE.from && stats.takenOutAt === null && failingState !== 'in') stats.takenOutAt = i;
      if (i >= OUTAGE.to && stats.takenOutAt !== null && stats.backInAt === null && failingState === 'in') stats.backInAt = i;
    }
    if (i >= OUTAGE.from && i < OUTAGE.to && route.providers[0].id === FAILING) stats.firstOnFailingDuringOutage += 1;
    const marks = new Map();
    let extra = 0;
    for (const [index, provider] of route.providers.entries()) {
      if (index > 0) {
        if (cascades && extra >= MAX_EXTRA_ATTEMPTS) break;
        extra += 1;
      }
      const result = answer(w, i, PROVIDERS.indexOf(provider));
      stats.attempts += 1;
      marks.set(provider.id, result === 't' ? 't' : result === 'a' ? 'a' : 'd');
      if (result === 't') {
        if (provider.id === FAILING) stats.lostOnFailing += 1;
        continue;
      }
      if (result === 'a') {
        stats.approved += 1;
        break;
      }
      // A hard decline ends the charge; so does a soft one without cascading.
      if (result === 'hard' || !cascades) break;
    }
    for (const [id, mark] of marks) outcomes.set(id, appendOutcomes(outcomes.get(id), mark, now, settings));
  }
  return stats;
}

const pct = (n, d) => `${((100 * n) / d).toFixed(2)} %`;
const int = (n) => n.toLocaleString('en-US');

function main() {
  const w = world();
  const rows = [
    ['(a) priority only', run('priority', w)],
    ['(b) cascading alone', run('cascade', w)],
    ['(c) success rate + cascading', run('success_rate', w)],
  ];
  const outageCharges = OUTAGE.to - OUTAGE.from;
  console.log(`${int(CHARGES)} charges, seed ${SEED}; ${PROVIDERS.map((p) => `${p.type} ${Math.round(p.from * 100)}→${Math.round(p.to * 100)} %`).join(', ')}; ` +
    `${PROVIDERS.find((p) => p.id === FAILING).type} down for charges ${int(OUTAGE.from)}–${int(OUTAGE.to)} (${int(outageCharges)} charges, ${(outageCharges * ARRIVAL_MS) / 60_000} min)`);
  console.log('');
  console.log('| routing | approval rate | provider attempts per charge | attempts lost on the failing provider | outage charges tried on it first | moved away after | taken back in after |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, s] of rows) {
    const away = s.takenOutAt === null ? 'never' : `${int(s.takenOutAt - OUTAGE.from)} charges`;
    const back = s.takenOutAt === null ? 'n/a' : s.backInAt === null ? 'not within the run' : `${int(s.backInAt - OUTAGE.to)} charges`;
    console.log(`| ${name} | ${pct(s.approved, CHARGES)} | ${(s.attempts / CHARGES).toFixed(3)} | ${int(s.lostOnFailing)} | ${int(s.firstOnFailingDuringOutage)} of ${int(outageCharges)} | ${away} | ${back} |`);
  }
  const c = rows[2][1];
  console.log('');
  console.log(`(c) explored ${int(c.explored)} charges (${pct(c.explored, CHARGES)}).`);
}

main();
