#!/usr/bin/env node
// Checks perfgate's publisher against github-action-benchmark's real code: the same benchmark
// inputs and the same commit are written once by the action (its dist/ at the SHA bench-main.yml
// pins, run by scripts/lib/run-action-write.cjs with git mocked) and once by bench/history
// (appendRun + serializeBenchmarkData, as `npm run publish` does), and the two data.js files must
// be byte for byte equal. The push event's head_commit is built from git the way GitHub fills it
// (fields, key order, committer date and username as in the action's own gh-pages data.js).
//   git clone https://github.com/benchmark-action/github-action-benchmark ACTION
//   git -C ACTION checkout <the SHA pinned in .github/workflows/bench-main.yml>
//   node scripts/check-action-format.mjs --action ACTION
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { YAML } from 'zx';
import { runCommand } from '../bench/cli/run.js';
import { errors } from '../bench/core/errors.js';
import { git } from '../bench/core/git.js';
import {
  appendRun,
  commitFromGit,
  emptyBenchmarkData,
  readBenchmarkInput,
  serializeBenchmarkData,
} from '../bench/history/index.js';
import { githubUsername } from '../bench/history/git-commit.js';
import { SUITE_NAMES, TOOLS, TREND_SUITES } from '../bench/results/benchmark-action.js';
import { addAnchor, pinFirst } from '../bench/comparison/trend/anchors.js';
import { relativeName, trendBenches } from '../bench/comparison/trend/ratios.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO_URL = 'https://github.com/perf/gate';
const NOW = 1771513003896;

const COMMAND = {
  name: 'check-action-format',
  invocation: 'node scripts/check-action-format.mjs',
  synopsis: '--action DIR',
  summary:
    "Writes the same run with github-action-benchmark's code and with perfgate's publisher and compares the bytes.\nExit 0 equal, 1 different, 2 bad input.",
  options: {
    action: {
      type: 'string',
      value: 'DIR',
      help: 'a checkout of benchmark-action/github-action-benchmark at the pinned SHA',
      required: true,
    },
  },
};

const pinnedSha = () => {
  const workflow = YAML.parse(readFileSync(join(ROOT, '.github/workflows/bench-main.yml'), 'utf8'));
  const uses = workflow.jobs.publish.steps
    .map((step) => step.uses ?? '')
    .find((value) => value.startsWith('benchmark-action/github-action-benchmark@'));
  return uses.split('@')[1];
};

// What GitHub puts in a push event's head_commit for HEAD of `dir`, in its key order.
function headCommitOfPush(dir) {
  const [id, treeId, authorName, authorEmail, committerName, committerEmail, timestamp, message] = git(
    dir,
    'log',
    '-1',
    '--format=%H%x00%T%x00%an%x00%ae%x00%cn%x00%ce%x00%cI%x00%B',
  ).split('\0');
  const person = (name, email) => ({
    email,
    name,
    ...(githubUsername(email) ? { username: githubUsername(email) } : {}),
  });
  return {
    author: person(authorName, authorEmail),
    committer: person(committerName, committerEmail),
    distinct: true,
    id,
    message: message.trim(),
    timestamp,
    tree_id: treeId,
    url: `${REPO_URL}/commit/${id}`,
  };
}

await runCommand(COMMAND, ({ values }) => {
  const expected = pinnedSha();
  const actual = git(values.action, 'rev-parse', 'HEAD');
  if (actual !== expected)
    throw errors.badArgs(
      [`${values.action} is at ${actual}, but bench-main.yml pins ${expected}`],
      'check out the pinned commit first',
    );
  const work = mkdtempSync(join(tmpdir(), 'perfgate-action-format-'));
  try {
    // A measured repository whose commit has one GitHub user and one plain email.
    const repo = join(work, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    git(
      repo,
      '-c',
      'user.name=Octo Cat',
      '-c',
      'user.email=583231+octocat@users.noreply.github.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'Speed up routing\n\nUse a radix tree.',
    );
    // Inputs in the key order perfgate's results writer uses (name, unit, value, range, extra).
    const inputs = {
      [TOOLS.bigger]: [
        {
          name: 'express json c=100 - req/s',
          unit: 'req/s',
          value: 5321.4,
          range: '± 2.1%',
          extra: 'variant: express\nscenario: json',
        },
        { name: 'fastify json c=100 - req/s', unit: 'req/s', value: 9000 },
      ],
      [TOOLS.smaller]: [{ name: 'express json c=100 - p99 latency', unit: 'ms', value: 12.5, extra: 'samples: 10' }],
    };
    // The relative trend's lines as `perfgate trend` writes them (bench/comparison/trend/ratios.js), chained over one re-anchor.
    const cpuLine = relativeName('express json c=100', 'CPU µs/request');
    const state = addAnchor(
      pinFirst({ ref: 'v1.0.0', sha: 'a'.repeat(40) }, new Date(NOW)),
      { ref: 'v1.1.0', sha: 'b'.repeat(40) },
      { [cpuLine]: { ratio: 1.012, ci: [1.004, 1.02] } },
      new Date(NOW),
    );
    const relative = trendBenches(
      {
        [cpuLine]: { direction: 'smaller', ratio: 0.987, ci: [0.979, 0.995] },
        [relativeName('express json c=100', 'req/s')]: { direction: 'bigger', ratio: 1.011, ci: [1.002, 1.019] },
      },
      state,
    );
    const runs = [
      [SUITE_NAMES.bigger, TOOLS.bigger, inputs[TOOLS.bigger]],
      [SUITE_NAMES.smaller, TOOLS.smaller, inputs[TOOLS.smaller]],
      [TREND_SUITES.bigger, TOOLS.bigger, relative.bigger],
      [TREND_SUITES.smaller, TOOLS.smaller, relative.smaller],
    ].map(([name, tool, benches], index) => {
      const file = join(work, `${index}-${tool}.json`);
      writeFileSync(file, JSON.stringify(benches));
      return { name, tool, file };
    });

    const pages = join(work, 'pages');
    mkdirSync(pages);
    const event = join(work, 'event.json');
    writeFileSync(event, JSON.stringify({ head_commit: headCommitOfPush(repo), repository: { html_url: REPO_URL } }));
    writeFileSync(join(work, 'spec.json'), JSON.stringify({ now: NOW, dataDir: 'dev/bench', runs }));
    execFileSync(
      process.execPath,
      [join(ROOT, 'scripts/lib/run-action-write.cjs'), values.action, join(work, 'spec.json')],
      {
        cwd: pages,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          PATH: process.env.PATH,
          GITHUB_EVENT_PATH: event,
          GITHUB_REPOSITORY: 'perf/gate',
          GITHUB_WORKFLOW: 'bench-main',
        },
      },
    );
    const byAction = readFileSync(join(pages, 'dev/bench/data.js'), 'utf8');

    let data = emptyBenchmarkData();
    for (const run of runs) {
      ({ data } = appendRun(
        data,
        {
          commit: commitFromGit(repo, { repoUrl: REPO_URL }),
          date: NOW,
          suites: [{ suite: run.name, tool: run.tool, benches: readBenchmarkInput(run.file) }],
        },
        { repoUrl: REPO_URL, now: NOW },
      ));
    }
    const byPerfgate = serializeBenchmarkData(data);
    if (byAction === byPerfgate) {
      console.log(
        `equal: github-action-benchmark ${expected} and perfgate write the same ${byAction.length} bytes of data.js`,
      );
      return 0;
    }
    const a = byAction.split('\n');
    const b = byPerfgate.split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    console.log(`different from line ${line + 1}:\n  action:   ${a[line]}\n  perfgate: ${b[line]}`);
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
