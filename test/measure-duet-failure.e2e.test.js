// A duet whose head crashes at start while the base is still starting: the failure is reported
// with the sides it names, and the harness process does not die of the head's failed load.
import assert from 'node:assert/strict';
import test from 'node:test';
import { PerfgateError } from '../bench/core/errors.js';
import { openMeasurement } from '../bench/measurement/context.js';
import { measureTogether } from '../bench/measurement/measure.js';
import { commandVariant } from '../bench/measurement/variants.js';
import { OPTION_DEFAULTS } from '../servers/contract/options.js';
import { leftoverServers, misbehavingCommand, tempDir } from './helpers/harness.js';

test('a head that crashes at start beside a base still starting fails the duet, naming the head', async () => {
  const config = { duration: 1, warmup: 0, timeout: 1, readyTimeout: 2, workers: 0 };
  const measurement = await openMeasurement({ config, outDir: tempDir() });
  const spec = { id: 'hello c=2', scenario: 'hello', options: OPTION_DEFAULTS, connections: 2 };
  const sides = [
    { key: 'base', spec, variant: commandVariant('base', misbehavingCommand('never-ready')) },
    { key: 'head', spec, variant: commandVariant('head', misbehavingCommand('crash')) },
  ];
  const failure = await measureTogether({
    sides,
    measurement,
    settings: { ...config, load: { connections: 2 } },
    label: 'round1',
  }).then(
    () => null,
    (error) => error,
  );
  assert.ok(failure instanceof PerfgateError, String(failure?.stack ?? failure));
  assert.ok(failure.sides.includes('head'), `${failure.message} (sides: ${failure.sides})`);
  assert.deepEqual(leftoverServers(), []);
});
