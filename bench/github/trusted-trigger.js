// The trusted trigger of the self-hosted benchmarks (docs/self-hosted-runner.md). A request (a
// `/perfgate` comment on a pull request, or the run-bench label) is handled by a job on a
// GitHub-hosted runner that runs the default branch's workflow and never checks out pull-request
// code. It checks that the requester may write to the repository, records the full head commit
// the request approves (the label event's, the one a comment names, or the head the API shows as
// the job starts), and dispatches the self-hosted workflow on the default branch with that pull
// request and commit as inputs: whatever is pushed later, that commit is measured.
// Insiders' pull requests (a branch of the repository itself, an update bot's) need no request:
// their opening and every push dispatch the same way (automaticRequest, decideAutomatic), unless
// the default branch's perfgate.config turns that off (automaticSettings).
// Node built-ins and this directory's small modules only: the request job installs nothing.
import { codeSpan as code } from '../core/text.js';
import { errors, githubErrors } from '../core/errors.js';
import { isWorkflow, patchBeyondNodeVersion } from './runtime-upgrade.js';

export const DEFAULT_COMMAND = '/perfgate';
export const DEFAULT_LABEL = 'run-bench';
// role_name of GET /repos/{owner}/{repo}/collaborators/{user}/permission that may approve.
const APPROVING_ROLES = ['admin', 'maintain', 'write'];
// A comment's author_association that may be a maintainer's; anyone else's comment is ignored
// without a reply or an API call.
export const INSIDER_ASSOCIATIONS = ['OWNER', 'MEMBER', 'COLLABORATOR'];
// The update bots whose pull requests run without a maintainer's request (the benchmark, and the
// upgrade gate when a measured framework or the Node.js version changed).
export const UPDATE_BOTS = ['dependabot[bot]', 'renovate[bot]'];
export const isUpdateBotPull = (pull) => UPDATE_BOTS.includes(pull?.user?.login);
// The pull_request_target actions that run an insider's pull request without a request.
export const AUTOMATIC_ACTIONS = ['opened', 'reopened', 'ready_for_review', 'synchronize'];
// perfgate.config's `github.automatic`: which pull requests run without a request.
export const AUTOMATIC_MODES = ['insiders', 'approved-only'];
// perfgate.config's `github` section (bench/project/schema.js takes it from here, so that the
// request job, which installs no validator, reads exactly what the schema allows).
export const GITHUB_SETTINGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    automatic: { enum: AUTOMATIC_MODES },
    drafts: { type: 'boolean' },
  },
};
const DEFAULT_SETTINGS = { automatic: 'insiders', drafts: false };
const CONFIG_FILE = 'perfgate.config.json';
const SHA = /^[0-9a-f]{40}$/;
const HEX = /^[0-9a-f]+$/i;
// The files an upgrade-gate request may change: manifests, lockfiles and the Node.js version
// files (data, read as text: bench/github/runtime-upgrade.js), at any depth; and a workflow
// whose patch changes only setup-node's node-version (runtime-upgrade.js screens it).
const MANIFESTS = new Set(['package.json', 'package-lock.json', 'npm-shrinkwrap.json', '.nvmrc', '.node-version']);
const MAX_PULL_COMMITS = 250; // what GET /pulls/{n}/commits lists at most

/**
 * What the event asks for, or null when it is not a benchmark request (any other comment or label).
 * A comment asks when its first word is the command, optionally followed by the full commit it
 * approves (`/perfgate <40 hex>`); a label asks when it is the label. `outsider`: a comment by
 * someone with no association to the repository, to be ignored without a reply. With `automatic`,
 * a pull request opened, reopened, made ready or pushed to asks too (via 'automatic'; `insider`
 * says why it may run without a maintainer, or is null).
 */
export function requestOfEvent(
  eventName,
  event,
  { command = DEFAULT_COMMAND, label = DEFAULT_LABEL, automatic = false } = {},
) {
  if (eventName === 'issue_comment') {
    if (event?.action !== 'created' || !event.issue?.pull_request) return null;
    const [word, sha, ...rest] = String(event.comment?.body ?? '')
      .trim()
      .split(/\s+/);
    if (word !== command) return null;
    return {
      via: 'comment',
      number: event.issue.number,
      actor: event.comment.user?.login,
      outsider: !INSIDER_ASSOCIATIONS.includes(event.comment.author_association),
      commentId: event.comment.id,
      createdAt: event.comment.created_at,
      approvedSha: sha && !rest.length && SHA.test(sha) ? sha : null,
      // Only a full commit id approves a commit: a prefix can be shared by a prepared commit.
      malformed: rest.length
        ? 'extra words'
        : sha && !SHA.test(sha)
          ? HEX.test(sha)
            ? 'prefix'
            : 'not a commit'
          : null,
    };
  }
  if (eventName === 'pull_request_target' && automatic && AUTOMATIC_ACTIONS.includes(event?.action)) {
    const pull = event.pull_request;
    // A branch of the repository itself was pushed by someone who can write to it; a fork's was not.
    const sameRepository =
      Boolean(pull?.head?.repo?.full_name) && pull.head.repo.full_name === pull.base?.repo?.full_name;
    return {
      via: 'automatic',
      number: pull?.number,
      actor: pull?.user?.login,
      sha: pull?.head?.sha,
      draft: pull?.draft === true,
      insider: sameRepository ? 'a branch of this repository' : isUpdateBotPull(pull) ? 'an update bot' : null,
    };
  }
  if (eventName === 'pull_request_target') {
    if (event?.action !== 'labeled' || event.label?.name !== label) return null;
    return {
      via: 'label',
      number: event.pull_request?.number,
      actor: event.sender?.login,
      labelledSha: event.pull_request?.head?.sha,
    };
  }
  return null;
}

// How to write a request, for the refusals.
const usage = (command) => `write \`${command}\` alone, or followed by the full 40-hex commit to measure`;

async function permissionOf({ api, repository, actor }) {
  const answer = await api.request(
    'GET',
    `/repos/${repository}/collaborators/${encodeURIComponent(actor)}/permission`,
    undefined,
    { allow: [404] },
  );
  // role_name tells maintain and triage apart; the older `permission` folds them into write and read.
  return answer?.role_name ?? answer?.permission ?? 'none';
}

/**
 * Decides a request: { approved: true, number, sha, head, actor, role } or { approved: false, reason },
 * or for a maintainer's bare comment { approved: false, confirm: the head now }, to be named back.
 * The commit is the one approved: the label event's head, or the full commit a comment names (a
 * commit of the pull request, also after later pushes).
 * lockfileOnly: the pull request may change only package manifests, lockfiles, the Node.js version files and
 * setup-node's node-version in workflows (the upgrade gate).
 */
export async function decide({ api, repository, defaultBranch, request, command = DEFAULT_COMMAND, lockfileOnly }) {
  if (!request.actor) return { approved: false, reason: 'the event names no requester' };
  if (request.malformed)
    return {
      approved: false,
      reason:
        request.malformed === 'prefix'
          ? `\`${command}\` needs the full 40-hex commit, not a prefix (a prepared commit can share a prefix): ${usage(command)}`
          : usage(command),
    };
  // The head first: the fewer seconds after the comment, the fewer pushes can slip in.
  const pull = await api.request('GET', `/repos/${repository}/pulls/${request.number}`, undefined, { allow: [404] });
  const role = await permissionOf({ api, repository, actor: request.actor });
  if (!APPROVING_ROLES.includes(role)) {
    return {
      approved: false,
      reason: `@${request.actor} has ${role} access; only people with write, maintain or admin access can start a benchmark on the benchmark machine. A maintainer can ask for it with \`${command}\`.`,
    };
  }
  if (!pull) return { approved: false, reason: `pull request #${request.number} does not exist` };
  if (pull.state !== 'open') return { approved: false, reason: `pull request #${request.number} is ${pull.state}` };
  if (pull.base?.ref !== defaultBranch)
    return {
      approved: false,
      reason: `pull request #${request.number} targets ${code(pull.base?.ref ?? '')}, not ${code(defaultBranch)}: only pull requests into the default branch are benchmarked`,
    };
  const head = pull.head?.sha;
  if (!SHA.test(head ?? '')) throw githubErrors.api('GET', `pulls/${request.number}`, 'no head commit');
  const sha = request.via === 'label' ? request.labelledSha : (request.approvedSha ?? head);
  if (!SHA.test(sha ?? ''))
    throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'names no full head commit of the pull request');
  if (sha !== head && !(await isCommitOf({ api, repository, number: request.number, sha })))
    return {
      approved: false,
      reason: `${sha} is not a commit of #${request.number} (its head is ${head}): name the full commit of this pull request to measure`,
    };
  if (lockfileOnly) {
    const other = await nonUpgradeChange({ api, repository, number: request.number });
    if (other)
      return {
        approved: false,
        reason: other.beyond
          ? `#${request.number}: ${githubErrors.workflowChange([`${code(other.file)}: ${code(other.beyond)}`]).message}`
          : `#${request.number} changes ${code(other.file)}; the upgrade gate runs only on pull requests that change nothing but package.json, lockfiles, .nvmrc, .node-version and setup-node's node-version in workflows`,
      };
  }
  // A bare comment approves nothing: the head can move between the maintainer's look and this job.
  if (request.via === 'comment' && !request.approvedSha) return { approved: false, confirm: head };
  return { approved: true, number: request.number, sha, head, actor: request.actor, role };
}

/**
 * Decides an insider's pull request event without a request, as decide() does a request:
 * { approved: true, number, sha, head, actor, role } or { approved: false, reason }. `settings`
 * are the default branch's (automaticSettings). The commit is the event's head, and only while
 * it is still the head: a newer push has a run of its own.
 */
export async function decideAutomatic({
  api,
  repository,
  defaultBranch,
  request,
  settings,
  command = DEFAULT_COMMAND,
}) {
  const number = request.number;
  if (!Number.isInteger(number) || !SHA.test(request.sha ?? ''))
    throw githubErrors.badEvent('GITHUB_EVENT_PATH', 'has no pull_request with a number and a full head commit');
  if (settings.automatic !== 'insiders')
    return {
      approved: false,
      reason: `github.automatic is ${settings.automatic} in ${defaultBranch}'s ${CONFIG_FILE}: a benchmark runs on a maintainer's \`${command} <full sha>\` only`,
    };
  if (!request.insider)
    return {
      approved: false,
      reason: `#${number} comes from a fork: a maintainer approves one commit of it with \`${command} <full sha>\``,
    };
  if (request.draft && !settings.drafts)
    return {
      approved: false,
      reason: `#${number} is a draft: it runs when marked ready for review (or set github.drafts to true in ${CONFIG_FILE})`,
    };
  const pull = await api.request('GET', `/repos/${repository}/pulls/${number}`, undefined, { allow: [404] });
  if (pull?.state !== 'open') return { approved: false, reason: `pull request #${number} is ${pull?.state ?? 'gone'}` };
  if (pull.base?.ref !== defaultBranch)
    return { approved: false, reason: `pull request #${number} does not target ${code(defaultBranch)}` };
  const head = pull.head?.sha;
  if (head !== request.sha)
    return {
      approved: false,
      reason: `${request.sha} is no longer the head of #${number} (${head ?? 'none'} is): the newer push's run measures that`,
    };
  return { approved: true, number, sha: head, head, actor: request.actor, role: request.insider };
}

/**
 * The default branch's `github` settings of perfgate.config.json, read through the API at that
 * branch (never the pull request's copy), with their defaults; a file without them gives the defaults.
 */
export async function automaticSettings({ api, repository, ref }) {
  const entry = await api.request(
    'GET',
    `/repos/${repository}/contents/${CONFIG_FILE}?ref=${encodeURIComponent(ref)}`,
    undefined,
    { allow: [404] },
  );
  if (!entry) return { ...DEFAULT_SETTINGS };
  const where = `${ref}'s ${CONFIG_FILE}`;
  let config;
  try {
    config = JSON.parse(Buffer.from(String(entry.content ?? ''), 'base64').toString('utf8'));
  } catch (error) {
    throw githubErrors.badSettings(where, [`is not valid JSON: ${error.message}`]);
  }
  const settings = config?.github ?? {};
  const problems = settingsProblems(settings);
  if (problems.length) throw githubErrors.badSettings(where, problems);
  return { ...DEFAULT_SETTINGS, ...settings };
}

// GITHUB_SETTINGS_SCHEMA's checks, without a validator.
function settingsProblems(settings) {
  if (typeof settings !== 'object' || Array.isArray(settings) || settings === null) return ['github must be an object'];
  return Object.entries(settings).flatMap(([key, value]) => {
    const rule = GITHUB_SETTINGS_SCHEMA.properties[key];
    if (!rule) return [`github.${key} is not a setting (${Object.keys(GITHUB_SETTINGS_SCHEMA.properties).join(', ')})`];
    if (rule.enum && !rule.enum.includes(value))
      return [`github.${key} must be one of ${rule.enum.map((each) => JSON.stringify(each)).join(', ')}`];
    if (rule.type && typeof value !== rule.type) return [`github.${key} must be a ${rule.type}`];
    return [];
  });
}

// Whether `sha` is one of the pull request's commits (the approved one, with pushes after it).
async function isCommitOf({ api, repository, number, sha }) {
  const pages = Math.ceil(MAX_PULL_COMMITS / 100);
  for await (const commit of api.paginate(`/repos/${repository}/pulls/${number}/commits?per_page=100`, {
    maxPages: pages,
  }))
    if (commit?.sha === sha) return true;
  return false;
}

// What of the pull request's diff is not an upgrade, or null: the first file that is not a
// manifest or lockfile, or a workflow whose patch changes more than setup-node's node-version
// ({ file, beyond: the first such line }; a workflow added, removed, renamed or too large for a
// patch counts as a whole).
async function nonUpgradeChange({ api, repository, number }) {
  for await (const file of api.paginate(`/repos/${repository}/pulls/${number}/files?per_page=100`, { maxPages: 30 })) {
    const names = [file?.filename, file?.previous_filename].filter((each) => each !== undefined).map(String);
    if (names.length === 1 && isWorkflow(names[0]) && file.status === 'modified') {
      const beyond =
        typeof file.patch === 'string' ? patchBeyondNodeVersion(file.patch) : 'no patch: too large to read';
      if (beyond !== null) return { file: names[0], beyond };
      continue;
    }
    const other = names.find((name) => !MANIFESTS.has(name.split('/').pop()));
    if (other !== undefined) return { file: other };
  }
  return null;
}

// workflow_dispatch of the self-hosted workflow on the default branch (its definition, not the pull request's).
export async function dispatch({ api, repository, workflow, ref, number, sha }) {
  await api.request('POST', `/repos/${repository}/actions/workflows/${encodeURIComponent(workflow)}/dispatches`, {
    ref,
    inputs: { pr: String(number), sha },
  });
}

export async function reply({ api, repository, number, body }) {
  await api.request('POST', `/repos/${repository}/issues/${number}/comments`, { body });
}

// The label approves one commit: it comes off at once, so that it never stands for a later one.
export async function removeLabel({ api, repository, number, label }) {
  await api.request('DELETE', `/repos/${repository}/issues/${number}/labels/${encodeURIComponent(label)}`, undefined, {
    allow: [404],
  });
}

// Inputs of the dispatched workflow, checked before anything uses them.
export function checkedInputs({ pr, sha }) {
  const problems = [];
  if (!/^[1-9]\d{0,9}$/.test(pr ?? '')) problems.push(`the pr input must be a pull request number (got "${pr ?? ''}")`);
  if (!SHA.test(sha ?? '')) problems.push(`the sha input must be a full 40-hex commit id (got "${sha ?? ''}")`);
  if (problems.length)
    throw errors.badArgs(
      problems,
      'the self-hosted benchmark workflows are started by the request workflow (docs/self-hosted-runner.md)',
    );
  return { number: Number(pr), sha };
}
