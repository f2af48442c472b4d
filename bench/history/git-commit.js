// The commit object of a run (the shape of github-action-benchmark's `commit`) for a run
// measured outside GitHub Actions: HEAD of the measured checkout, or a placeholder naming
// the run's time when the directory is not a git checkout (or has no commit yet).
import { userInfo } from 'node:os';
import { basename } from 'node:path';
import { gitOutput as git } from '../core/git.js';

// NUL never occurs in a commit's header fields, and %B (the message) comes last.
const FIELDS = ['%H', '%T', '%an', '%ae', '%cn', '%ce', '%cI', '%B'];

// The web address of a GitHub-like remote (https, ssh or scp-like), for commit links;
// '' for anything else, e.g. a local path.
export function webUrlOfRemote(remote) {
  const match =
    /^(?:https?:\/\/(?:[^@/]+@)?|ssh:\/\/(?:[^@/]+@)?|[^@/:]+@)([^/:]+)(?::\d+)?[/:]([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(
      remote.trim(),
    );
  return match ? `https://${match[1]}/${match[2]}` : '';
}

export function originWebUrl(dir) {
  return webUrlOfRemote(git(['remote', 'get-url', 'origin'], dir) ?? '');
}

// userInfo() throws for a uid without a passwd entry, common in containers.
function userName() {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER || 'unknown';
  }
}

export function placeholderCommit(dir, date = Date.now()) {
  const timestamp = new Date(date).toISOString().replace(/\.\d+Z$/, 'Z');
  const user = userName();
  const person = { name: user, email: '', username: user };
  return {
    id: `local-${timestamp.replace(/[-:]/g, '')}`,
    message: `local run in ${basename(dir)} (not a git checkout, or no commit yet)`,
    timestamp,
    url: '',
    author: person,
    committer: person,
  };
}

// The GitHub login behind a commit email, when the email itself says it: GitHub's no-reply
// addresses (ID+login@users.noreply.github.com) and web-flow (commits made on github.com).
// Other emails map to an account only on GitHub's side; GitHub's own push payload then omits
// username too, so it is left out here as there.
export function githubUsername(email) {
  if (email === 'noreply@github.com') return 'web-flow';
  return /^(?:\d+\+)?([A-Za-z\d](?:[A-Za-z\d-]*[A-Za-z\d])?)@users\.noreply\.github\.com$/i.exec(email)?.[1];
}

// A person as the push payload's head_commit has it, keys in that order (email, name, username).
function person(name, email) {
  const username = githubUsername(email);
  return username === undefined ? { email, name } : { email, name, username };
}

// The fields and key order of the push event's head_commit that github-action-benchmark stores
// verbatim (checked against the action's own gh-pages data.js: committer date, trimmed full
// message, distinct true for the pushed head): so data.js diffs cleanly whichever of the two wrote it.
// repoUrl: where commit links point; by default the origin remote's web address.
export function commitFromGit(dir, { date = Date.now(), repoUrl } = {}) {
  const log = git(['log', '-1', `--format=${FIELDS.join('%x00')}`], dir);
  if (log === null) return placeholderCommit(dir, date);
  const [id, treeId, authorName, authorEmail, committerName, committerEmail, timestamp, message] = log.split('\0');
  const webUrl = repoUrl ?? originWebUrl(dir);
  return {
    author: person(authorName, authorEmail),
    committer: person(committerName, committerEmail),
    distinct: true,
    id,
    message: message.trim(),
    timestamp,
    tree_id: treeId,
    url: webUrl ? `${webUrl.replace(/\/$/, '')}/commit/${id}` : '',
  };
}
