// Appends a run to the data.js of a pages branch (github-action-benchmark's gh-pages layout)
// in any git repository: fetch the branch into a temporary repository, append, commit, push.
// A push rejected because another publisher moved the branch in the meantime is retried on
// the new tip, so concurrent publishers all land; nothing is ever force-pushed, so a failure
// leaves the remote branch as it was.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { historyErrors } from '../core/errors.js';
import { gitAsync } from '../core/git.js';
import { appendRunToFile } from './history-file.js';

// Rejections that mean "the branch moved since we fetched it", as `git push --porcelain`
// words them for a client-side check and for a lost race on the server's ref lock.
const RACE_REJECTIONS = /non-fast-forward|fetch first|failed to update ref|cannot lock ref|incorrect old value/i;
// Used only when git knows no identity (e.g. a fresh CI machine), where commit would fail.
const FALLBACK_IDENTITY = ['-c', 'user.name=perfgate', '-c', 'user.email=perfgate@localhost'];

// URLs and scp-like addresses (host:path, a colon before any slash) go to git as they are;
// anything else is a local path, made absolute because git runs in a temporary directory.
// A leading dash would reach git as an option (e.g. --upload-pack=...), so it is refused.
function remoteAddress(repo) {
  if (repo.startsWith('-'))
    throw historyErrors.publishFailed(`"${repo}" is not a repository address`, '', 'pass a path or URL to --repo');
  return /^[a-z][a-z\d+.-]*:\/\//i.test(repo) || /^[^/]+:/.test(repo) ? repo : resolve(repo);
}

// Hides the user and token of an https://user:token@host URL in anything printed.
function redactCredentials(text) {
  return text.replace(/([a-z][a-z\d+.-]*:\/\/)[^@/\s]+@/gi, '$1***@');
}

// A file's path in the branch; refuses paths that leave the repository.
function fileInBranch(dir, name) {
  const normal = posix.normalize(dir.replaceAll('\\', '/')).replace(/\/$/, '');
  if (posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../')) {
    throw historyErrors.publishFailed(
      `the data directory "${dir}" is outside the repository`,
      '',
      'pass a relative directory such as dev/bench',
    );
  }
  return posix.join(normal, name);
}

const dataFileInBranch = (dir) => fileInBranch(dir, 'data.js');

function gitRunner(cwd, signal) {
  return async (args, failure) => {
    const result = await gitAsync(args, { cwd, signal });
    if (signal?.aborted) throw historyErrors.publishInterrupted();
    if (result.exitCode !== 0 && failure)
      throw historyErrors.publishFailed(failure.what, redactCredentials(result.stderr.trim()), failure.fix);
    return result;
  };
}

// The reason git gave for the refused ref ("fetch first", "pre-receive hook declined"), or null.
function pushRejection(porcelain) {
  const refused = porcelain.split('\n').find((line) => line.startsWith('!'));
  return refused ? refused.split('\t').slice(2).join(' ').trim() : null;
}

async function attemptPublish({ workDir, remote, shown, branch, dataFile, run, appendOptions, signal }) {
  mkdirSync(workDir);
  const git = gitRunner(workDir, signal);
  const unreachable = {
    what: `cannot read branch ${branch} of ${shown}`,
    fix: 'check --repo (a path or URL of a git repository) and your access to it',
  };
  await git(['init', '-q'], unreachable);
  const listing = await git(['ls-remote', '--exit-code', '--heads', remote, `refs/heads/${branch}`]);
  if (listing.exitCode === 0) {
    await git(['fetch', '-q', '--depth=1', remote, `refs/heads/${branch}`], unreachable);
    await git(['checkout', '-q', '-B', branch, 'FETCH_HEAD'], unreachable);
  } else if (listing.exitCode === 2) {
    // git ls-remote's "no such ref": the first publish starts the branch with no history.
    await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], unreachable);
  } else {
    throw historyErrors.publishFailed(unreachable.what, redactCredentials(listing.stderr.trim()), unreachable.fix);
  }

  const { added } = appendRunToFile(join(workDir, dataFile), run, {
    ...appendOptions,
    label: `${dataFile} on branch ${branch} of ${shown}`,
  });
  const cannotCommit = {
    what: 'cannot commit the new data in the temporary repository',
    fix: 'check your git configuration (e.g. commit signing) and try again',
  };
  await git(['add', '--', dataFile], cannotCommit);
  const identity = (await git(['var', 'GIT_COMMITTER_IDENT'])).exitCode === 0 ? [] : FALLBACK_IDENTITY;
  const suites = run.suites.filter((item) => added.includes(item.suite)).map((item) => `${item.suite} (${item.tool})`);
  await git(
    [
      ...identity,
      'commit',
      '-q',
      '--no-verify',
      '-m',
      `add ${suites.join(', ')} benchmark result for ${run.commit.id}`,
    ],
    cannotCommit,
  );

  const push = await git(['push', '--porcelain', remote, `HEAD:refs/heads/${branch}`]);
  if (push.exitCode === 0) return { pushed: true, added };
  const rejection = pushRejection(push.stdout);
  if (rejection && RACE_REJECTIONS.test(rejection)) return { pushed: false, rejection };
  throw historyErrors.publishFailed(
    `the push to branch ${branch} of ${shown} was refused${rejection ? ` (${rejection})` : ''}`,
    redactCredentials(push.stderr.trim()),
    'check that you may push to that branch (branch protection, hooks, credentials)',
  );
}

// Creates the branch with only a .nojekyll file when the repository does not have it yet (the
// first publish of a new repository: github-action-benchmark fetches and switches to the branch
// and fails when it is missing). Resolves to { created }; a branch someone else created in the
// meantime counts as there.
export async function ensureBranch({ repo, branch = 'gh-pages', signal }) {
  const remote = remoteAddress(repo);
  const shown = redactCredentials(repo);
  const workDir = mkdtempSync(join(tmpdir(), 'perfgate-branch-'));
  try {
    const git = gitRunner(workDir, signal);
    const failed = (what) => ({ what, fix: 'check --repo and that you may push to it' });
    await git(['init', '-q'], failed(`cannot prepare a repository to create ${branch}`));
    const listing = await git(['ls-remote', '--exit-code', '--heads', remote, `refs/heads/${branch}`]);
    if (listing.exitCode === 0) return { created: false };
    if (listing.exitCode !== 2)
      throw historyErrors.branchUnreadable(`${branch} of ${shown}`, redactCredentials(listing.stderr.trim()));
    await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], failed('cannot start the branch'));
    writeFileSync(join(workDir, '.nojekyll'), '');
    await git(['add', '.nojekyll'], failed('cannot start the branch'));
    const identity = (await git(['var', 'GIT_COMMITTER_IDENT'])).exitCode === 0 ? [] : FALLBACK_IDENTITY;
    await git(
      [...identity, 'commit', '-q', '--no-verify', '-m', `start ${branch} for the benchmark data and the trend site`],
      failed('cannot commit in the temporary repository'),
    );
    const push = await git(['push', '--porcelain', remote, `HEAD:refs/heads/${branch}`]);
    if (push.exitCode === 0) return { created: true };
    const rejection = pushRejection(push.stdout);
    if (rejection && RACE_REJECTIONS.test(rejection)) return { created: false };
    throw historyErrors.publishFailed(
      `could not create branch ${branch} of ${shown}${rejection ? ` (${rejection})` : ''}`,
      redactCredentials(push.stderr.trim()),
      'check that you may push to that branch',
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

// The text of one file of a branch (e.g. dev/bench/data.js of gh-pages), or null when the
// branch or the file does not exist yet. Nothing is written anywhere but a temporary directory.
export async function readBranchFile({ repo, branch = 'gh-pages', dir = 'dev/bench', name = 'data.js', signal }) {
  const file = fileInBranch(dir, name);
  const remote = remoteAddress(repo);
  const unreadable = (detail) => historyErrors.branchUnreadable(`${branch} of ${redactCredentials(repo)}`, detail);
  const workDir = mkdtempSync(join(tmpdir(), 'perfgate-read-'));
  try {
    const git = gitRunner(workDir, signal);
    await git(['init', '-q']);
    const listing = await git(['ls-remote', '--exit-code', '--heads', remote, `refs/heads/${branch}`]);
    if (listing.exitCode === 2) return null;
    if (listing.exitCode !== 0) throw unreadable(redactCredentials(listing.stderr.trim()));
    const fetched = await git(['fetch', '-q', '--depth=1', remote, `refs/heads/${branch}`]);
    if (fetched.exitCode !== 0) throw unreadable(redactCredentials(fetched.stderr.trim()));
    const shown = await git(['show', `FETCH_HEAD:${file}`]);
    return shown.exitCode === 0 ? shown.stdout : null;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

// run and maxItems/repoUrl as appendRun's (append.js). Resolves to { attempts, added, where },
// where naming the branch, file and repository for people.
export async function publishRun({
  repo,
  branch = 'gh-pages',
  dir = 'dev/bench',
  run,
  maxItems,
  repoUrl,
  maxTries = 5,
  signal,
  log = () => {},
}) {
  if (!run.suites.some((item) => item.benches.length > 0)) {
    throw historyErrors.publishFailed(
      'there is nothing to publish: every input has no benchmark',
      '',
      'publish the outputs of a run in which some benchmark succeeded',
    );
  }
  const dataFile = dataFileInBranch(dir);
  const remote = remoteAddress(repo);
  const shown = redactCredentials(repo);
  const workRoot = mkdtempSync(join(tmpdir(), 'perfgate-publish-'));
  try {
    await gitRunner(workRoot, signal)(['check-ref-format', '--branch', branch], {
      what: `"${branch}" is not a valid branch name`,
      fix: 'pass another --branch',
    });
    for (let attempt = 1; attempt <= maxTries; attempt += 1) {
      const outcome = await attemptPublish({
        workDir: join(workRoot, `attempt-${attempt}`),
        remote,
        shown,
        branch,
        dataFile,
        run,
        appendOptions: { maxItems, repoUrl },
        signal,
      });
      if (outcome.pushed)
        return { attempts: attempt, added: outcome.added, where: `${branch}:${dataFile} of ${shown}` };
      if (attempt < maxTries) {
        log(
          `push rejected (${outcome.rejection}): another publisher moved ${branch}; retrying on its new tip (${attempt + 1} of ${maxTries})`,
        );
        // A random pause, so that publishers that collided do not collide again in step.
        await sleep(100 + Math.random() * 400 * attempt, undefined, { signal }).catch(() => {
          throw historyErrors.publishInterrupted();
        });
      }
    }
    throw historyErrors.publishFailed(
      `branch ${branch} of ${shown} kept moving: ${maxTries} pushes were rejected`,
      '',
      'publish again in a moment, or raise --max-tries',
    );
  } finally {
    rmSync(workRoot, { recursive: true, force: true });
  }
}
