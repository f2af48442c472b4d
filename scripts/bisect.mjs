#!/usr/bin/env node
// `npm run bisect -- --good REF --bad REF --benchmark NAME`: the first commit between good and
// bad that made the benchmark slower, each step a compare of a candidate against the latest
// good commit; then a differential CPU profile of that commit against its parent.
// Writes bisect.json and bisect.md; exits 0 when it found the commit or found no step, 1 when
// it could not resolve the range, 2 on bad input.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomicSync } from '../bench/core/atomic-file.js';
import { bisectMarkdown } from '../bench/comparison/bisect/report.js';
import { runBisect } from '../bench/comparison/bisect/run-bisect.js';
import { COMPARISON_OPTIONS, comparisonRequest } from '../bench/cli/compare-command.js';
import { runCommand } from '../bench/cli/run.js';
import { resolveSuite } from '../bench/config/resolve.js';
import { checkSandboxReach, createWorkRoot } from '../bench/comparison/sides.js';
import { EXIT } from '../bench/core/errors.js';
import { withProject } from '../bench/project/config.js';
import { sandboxDecision } from '../bench/measurement/sandbox/bubblewrap.js';
import { defaultResultsDir } from '../bench/results/write.js';

const BISECT_COMMAND = {
  name: 'bisect',
  invocation: 'npm run bisect --',
  synopsis: '--good REF --bad REF (--benchmark NAME | --variant V --scenario S --connections N) [options]',
  summary:
    'The first commit between good and bad that made one benchmark slower: a binary search over first-parent history,\neach step a compare of a candidate against the latest good commit, then a differential CPU profile of that commit\nagainst its parent. Writes bisect.json and bisect.md; exits 1 when the range could not be resolved.',
  options: {
    good: {
      type: 'string',
      value: 'REF',
      required: true,
      help: 'a commit where the benchmark was fine; on the first-parent history of --bad',
    },
    bad: { type: 'string', value: 'REF', required: true, help: 'a later commit where it is slower' },
    benchmark: {
      type: 'string',
      value: 'NAME',
      help: 'the benchmark, as results and history name it, e.g. "express json c=100"',
    },
    repo: {
      type: 'string',
      value: 'DIR',
      help: 'the repository of --good and --bad',
      defaultText: 'the current directory',
    },
    ...COMPARISON_OPTIONS,
    profile: {
      ...COMPARISON_OPTIONS.profile,
      help: 'the differential CPU profile of the commit found (--no-profile: skip it)',
      defaultText: 'on',
    },
    out: { ...COMPARISON_OPTIONS.out, defaultText: 'results/<time>-bisect' },
  },
};

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

await runCommand(BISECT_COMMAND, async ({ values }) => {
  const parsed = {
    ...comparisonRequest(values),
    good: values.good,
    bad: values.bad,
    benchmark: values.benchmark,
    repo: values.repo ?? process.cwd(),
  };
  // In a user's repository (a perfgate.config), its servers are bisected, its commits installed its way.
  const request = await withProject(parsed, parsed.repo);
  const { config } = await resolveSuite(request);
  const work = createWorkRoot();
  try {
    const outDir = request.outDir ?? defaultResultsDir('bisect');
    const project = request.project
      ? {
          repo: request.project.root,
          projectRoot: request.project.root,
          install: request.project.install,
          copy: request.project.copy,
        }
      : { projectRoot };
    const sandbox = sandboxDecision();
    if (sandbox.note) console.error(sandbox.note);
    if (sandbox.sandboxed) checkSandboxReach(project.projectRoot);
    const bisect = await runBisect({
      ...request,
      ...project,
      config,
      outDir,
      work,
      sandboxed: sandbox.sandboxed,
      onProgress: (line) => console.error(line),
    });
    const markdown = bisectMarkdown(bisect, { linkFrom: outDir });
    writeFileAtomicSync(join(outDir, 'bisect.json'), `${JSON.stringify(bisect, null, 2)}\n`);
    writeFileAtomicSync(join(outDir, 'bisect.md'), markdown);
    console.log(markdown);
    console.log(`results: ${outDir}`);
    return bisect.outcome === 'unresolved' ? EXIT.failed : EXIT.ok;
  } finally {
    work.remove();
  }
});
