// The named suites (`npm run bench -- --suite <name>`). The reference studies are in
// shared/reference-studies.md; each suite keeps the study's tiers and settings.

const PROXY_BASELINE_TIERS = [50, 100, 150, 200, 500, 1000, 2000, 5000, 10000, 20000];

export const SUITES = {
  // What `npm run bench` runs with no arguments: quick, and enough to see the frameworks apart.
  default: {
    variants: ['node-http', 'express', 'fastify'],
    scenarios: ['hello', 'json'],
    connections: [10, 100],
    duration: 5,
    warmup: 1,
  },
  // The smallest real run, for tests and for checking a machine.
  smoke: {
    variants: ['node-http'],
    scenarios: ['hello', 'json'],
    connections: [4],
    duration: 1,
    warmup: 0.5,
  },
  // Study 1: an Express proxy in front of a mock AI backend, each measured directly.
  'proxy-baseline': {
    variants: ['mock-backend', 'express'],
    scenarios: ['proxy'],
    connections: PROXY_BASELINE_TIERS,
    duration: 10,
    warmup: 2,
    timeout: 5,
    options: { backendDelayMs: [0, 500], logging: [false, true] },
  },
};

// Settings a suite does not give.
export const DEFAULTS = {
  duration: 5,
  warmup: 1,
  pipelining: 1,
  timeout: 10,
  repetitions: 1,
  workers: 0,
  readyTimeout: 15,
  options: { echoBytes: 1024, ioDelayMs: 100, cpuWork: 'loop:180000', backendDelayMs: 0, logging: false },
  commands: {},
};
