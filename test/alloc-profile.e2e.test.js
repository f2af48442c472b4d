// Which function allocates: one profiled run of both sides takes the CPU and the allocation
// profile together, and the head's allocation-only change (PERFGATE_INJECT_OBJECTS: a graph of
// small objects built and dropped per request) ranks its function first, with its file and line.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { profileRun } from '../bench/comparison/profile/profile-benchmark.js';
import { profileMarkdown } from '../bench/comparison/profile/report.js';
import { loadBuiltInVariant } from '../bench/measurement/variants.js';
import { leftoverServers, PROJECT_ROOT, tempDir } from './helpers/harness.js';
import { PROFILED_SETTINGS, PROFILED_SPEC, profiledMeasurement } from './helpers/profiled-benchmark.js';

describe('the allocation profile of two sides', () => {
  const spec = PROFILED_SPEC;

  test('the function the head allocates in comes first, beside a CPU profile of the same run', async () => {
    const variant = await loadBuiltInVariant('node-http');
    const head = {
      ...variant,
      launch: { ...variant.launch, env: { ...variant.launch.env, PERFGATE_INJECT_OBJECTS: '500' } },
    };
    const outDir = tempDir();
    const { profile, allocationProfile } = await profileRun(
      {
        spec,
        variants: { base: variant, head },
        roots: { base: PROJECT_ROOT, head: PROJECT_ROOT },
        measurement: await profiledMeasurement(),
        settings: PROFILED_SETTINGS,
        outDir,
      },
      ['cpu', 'allocation'],
    );
    assert.equal(allocationProfile.skipped, undefined, allocationProfile.skipped);
    assert.equal(profile.skipped, undefined, profile.skipped);
    const [first] = allocationProfile.grew;
    assert.equal(first.functionName, 'allocateGraph');
    assert.match(`${first.path}:${first.line}`, /^servers\/contract\/scenarios\.js:\d+$/);
    assert.equal(first.package, '(app)');
    // 500 objects of a few words each: kilobytes per request, in the order of magnitude only.
    assert.ok(first.change > 2_000 && first.change < 100_000, `${first.change} B/request`);
    assert.ok(first.change > first.uncertainty, 'beyond its sampling noise');
    assert.deepEqual(allocationProfile.requests, profile.requests, 'one run took both');
    assert.ok(allocationProfile.files.every((file) => file.endsWith('.heapprofile') && existsSync(file)));
    assert.ok(JSON.parse(readFileSync(allocationProfile.files[1], 'utf8')).head);
    assert.ok(profile.files.every((file) => file.endsWith('.cpuprofile')));
    const markdown = profileMarkdown(allocationProfile, { linkFrom: outDir, kind: 'allocation' }).join('\n');
    assert.match(markdown, /\| allocateGraph \| servers\/contract\/scenarios\.js:\d+ \| \(app\) \| /);
    assert.match(markdown, /\(profile\/head\/head-\d+\.heapprofile\)/);
    assert.deepEqual(leftoverServers(), []);
  });
});
