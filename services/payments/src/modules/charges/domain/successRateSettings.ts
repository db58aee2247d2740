import { routingConfig } from '../../../config';
import type { SuccessRateSettings } from './successRate';

const parsed = new WeakMap<object, SuccessRateSettings>();

/**
 * The success-rate settings of the service's configuration (its ROUTING_* variables); a configuration without
 * them (a use case test's) gets their defaults.
 */
export function successRateSettingsOf(config: object): SuccessRateSettings {
  const known = parsed.get(config);
  if (known) return known;
  const vars = routingConfig.parse(config);
  const settings: SuccessRateSettings = {
    window: vars.ROUTING_SUCCESS_RATE_WINDOW,
    priorWeight: vars.ROUTING_PRIOR_WEIGHT,
    explorePercent: vars.ROUTING_EXPLORE_PERCENT,
    eliminationWindow: vars.ROUTING_ELIMINATION_WINDOW,
    eliminationPercent: vars.ROUTING_ELIMINATION_PERCENT,
    cooldownMs: vars.ROUTING_COOLDOWN_SECONDS * 1000,
    probeEvery: vars.ROUTING_PROBE_EVERY,
  };
  parsed.set(config, settings);
  return settings;
}
