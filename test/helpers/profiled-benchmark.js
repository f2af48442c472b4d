// The short benchmark the profiler's e2e tests profile (node-http hello at 10 connections for a
// second), its measurement settings, and its run's context as bench/measurement/context.js opens
// it, but without pinning the test's own process.
import { DEFAULTS } from '../../bench/config/suites.js';
import { measurementSettings } from '../../bench/measurement/context.js';
import { currentPinning } from '../../bench/measurement/pinning.js';
import { loadBuiltInVariant } from '../../bench/measurement/variants.js';

const config = { ...DEFAULTS, duration: 1, warmup: 0.3, readyTimeout: 15, timeout: 10, pipelining: 1 };

export const PROFILED_SPEC = {
  id: 'node-http hello c=10',
  variant: 'node-http',
  scenario: 'hello',
  options: DEFAULTS.options,
  tags: [],
  connections: 10,
};

export const PROFILED_SETTINGS = measurementSettings(config, PROFILED_SPEC);

export const profiledMeasurement = async () => ({
  plan: currentPinning({}),
  backend: await loadBuiltInVariant('mock-backend'),
  engine: config.engine,
});
