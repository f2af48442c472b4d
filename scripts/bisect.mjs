#!/usr/bin/env node
// `npm run bisect -- --good REF --bad REF --benchmark NAME`: the first commit between good and
// bad that made the benchmark slower, each step a compare of a candidate against the latest
// good commit; then a differential CPU profile of that commit against its parent.
// Writes bisect.json and bisect.md; exits 0 when it found the commit or found no step, 1 when
// it could not resolve the range, 2 on bad input.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minimist } from 'zx';
import { writeFileAtomicSync } from '../bench/atomic-file.js';
import { bisectMarkdown } from '../bench/bisect/report.js';
import { runBisect } from '../bench/bisect/run-bisect.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { createWorkRoot } from '../bench/compare/sides.js';
import { errors, PerfgateError } from '../bench/errors.js';
import { COMPARISON_FLAGS, comparisonRequest } from './lib/compare-args.js';

const USAGE = `usage: npm run bisect -- --good REF --bad REF (--benchmark NAME | --variant V --scenario S --connections N) [options]
  --good REF --bad REF    a commit where the benchmark was fine, and a later one where it is slower;
                          good must be on bad's first-parent history
  --benchmark NAME        the benchmark, as named in results and history (e.g. "express json c=100")
  --repo DIR              the repository (default: this checkout)
  --no-profile            skip the differential CPU profile of the commit found
  and compare's measurement and verdict options (--duration, --budget, --threshold, ...: npm run compare -- --help)`;

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

function parseArgs(argv) {
  const parsed = minimist(argv, { string: ['good', 'bad', 'benchmark', 'repo', 'suite', 'config', 'out'], boolean: ['help'] });
  const unknown = Object.keys(parsed).filter((flag) => ![...COMPARISON_FLAGS, 'good', 'bad', 'benchmark', 'repo'].includes(flag));
  if (unknown.length) throw errors.badConfig('command line', unknown.map((flag) => `unknown option --${flag}: see npm run bisect -- --help`));
  if (parsed.help) return { help: true };
  if (!parsed.good || !parsed.bad) throw errors.badConfig('command line', ['give --good REF and --bad REF']);
  return { ...comparisonRequest(parsed), good: parsed.good, bad: parsed.bad, benchmark: parsed.benchmark, repo: parsed.repo ?? process.cwd() };
}

let work;
try {
  const request = parseArgs(process.argv.slice(2));
  if (request.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const { config } = await resolveSuite(request);
  work = createWorkRoot();
  const outDir = request.outDir ?? `results/${new Date().toISOString().replace(/[:.]/g, '-')}-bisect`;
  const bisect = await runBisect({ ...request, config, outDir, projectRoot, work, onProgress: (line) => console.error(line) });
  const markdown = bisectMarkdown(bisect, { linkFrom: outDir });
  writeFileAtomicSync(join(outDir, 'bisect.json'), `${JSON.stringify(bisect, null, 2)}\n`);
  writeFileAtomicSync(join(outDir, 'bisect.md'), markdown);
  console.log(markdown);
  console.log(`results: ${outDir}`);
  process.exitCode = bisect.outcome === 'unresolved' ? 1 : 0;
} catch (error) {
  if (!(error instanceof PerfgateError)) throw error;
  console.error(`perfgate: ${error.message}`);
  process.exitCode = 2;
} finally {
  work?.remove();
}
