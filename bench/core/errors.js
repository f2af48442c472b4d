// The one catalogue of the errors a user can meet, each saying what went wrong and what to do,
// with a stable code (after fastify's lib/errors.js). Entry points print `message` and exit with
// `exitCode` (bench/cli/run.js); the harness records `code` and `message` in a failed benchmark.
// Grouped by the part that throws them; every code is defined here and nowhere else.
import { commandLine } from './invocation.js';
import { oneLine } from './text.js';

// Exit codes of every command: 0 done, 1 the measured or checked thing failed (a regression,
// a finding, a refused artifact: each command says which), 2 bad input (arguments, config,
// files, context), so that a workflow can tell "fix the call" from "look at the result".
export const EXIT = Object.freeze({ ok: 0, failed: 1, badInput: 2 });

export class PerfgateError extends Error {
  constructor(code, message, exitCode = EXIT.badInput) {
    super(message);
    this.name = 'PerfgateError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

const define =
  (code, format, exitCode) =>
  (...args) =>
    new PerfgateError(code, format(...args), exitCode);
const bullets = (problems) => problems.map((problem) => `  - ${problem}`).join('\n');

export const errors = {
  badArgs: define('PG_BAD_ARGS', (problems, usage) => `invalid command line:\n${bullets(problems)}\n${usage}`),
  badConfig: define('PG_BAD_CONFIG', (where, problems) => `invalid config (${where}):\n${bullets(problems)}`),
  unknownSuite: define(
    'PG_UNKNOWN_SUITE',
    (name, known) => `unknown suite "${name}": choose one of ${known.join(', ')}, or pass a config file with --config`,
  ),
  unknownVariant: define(
    'PG_UNKNOWN_VARIANT',
    (name, known) =>
      `unknown variant "${name}": choose one of ${known.join(', ')}, or declare it under "commands" in a suite config`,
  ),
  unsupportedScenario: define(
    'PG_UNSUPPORTED_SCENARIO',
    (variant, scenario, supported, ofReference = false) =>
      `variant "${variant}" does not serve scenario "${scenario}": it serves ${supported.join(', ')}${ofReference ? `; "${scenario}" is the reference's scenario (reference.scenarios), which runs beside your servers without being asked: leave it out of --scenario` : ''}`,
  ),
  portInUse: define(
    'PG_PORT_IN_USE',
    (port) =>
      `port ${port} is in use on this machine: stop the process holding it (see \`ss -ltnp 'sport = :${port}'\`) or choose another port`,
  ),
  serverExited: define(
    'PG_SERVER_EXITED',
    (variant, code, signal, logFile, excerpt, when = 'before the run finished') =>
      `server "${variant}" exited (${signal ? `signal ${signal}` : `code ${code}`}) ${when}: ${excerpt ? `${excerpt} (its log: ${logFile})` : `see its log ${logFile}`}`,
  ),
  serverNotReady: define(
    'PG_SERVER_NOT_READY',
    (variant, seconds, logFile, excerpt) =>
      `server "${variant}" did not become ready within ${seconds} s: ${excerpt ? `its log ${logFile} says: ${excerpt}; ` : `see its log ${logFile}, `}or raise readyTimeout`,
  ),
  wrongAnswer: define(
    'PG_WRONG_ANSWER',
    (variant, scenario, diff) =>
      `server "${variant}" answered scenario "${scenario}" wrongly, so it was not measured:\n${diff}`,
  ),
  serverHung: define(
    'PG_SERVER_HUNG',
    (variant, scenario, seconds) =>
      `server "${variant}" did not answer the "${scenario}" check within ${seconds} s: it hangs; see its log`,
  ),
  fileLimit: define(
    'PG_FILE_LIMIT',
    (connections, limit, needed) =>
      `${connections} connections need more open files than the limit of ${limit}; raise the limit to at least ${needed} (\`ulimit -n\`, /etc/security/limits.conf, or the container's nofile limit)`,
  ),
  socketsExhausted: define(
    'PG_SOCKETS_EXHAUSTED',
    (connections, detail) =>
      `the load generator could not open ${connections} sockets (${detail}): lower the tier or raise the open-file limit`,
  ),
  unknownEngine: define(
    'PG_UNKNOWN_ENGINE',
    (name, known) =>
      `unknown load engine "${name}": choose one of ${known.join(', ')} (suite field "engine" or --engine)`,
  ),
  engineCannotPace: define(
    'PG_ENGINE_CANNOT_PACE',
    (name, pacing) =>
      `load engine "${name}" cannot hold a request rate: drop --rate (suite field "rate"), or use ${pacing.join(', ')}`,
  ),
  engineCannotCount: define(
    'PG_ENGINE_CANNOT_COUNT',
    (name, counting) =>
      `load engine "${name}" cannot stop at a request count: drop --soak-requests (suite field "soakRequests") and bound the soak by --duration alone, or use ${counting.join(', ')}`,
  ),
  engineNeedsRate: define(
    'PG_ENGINE_NEEDS_RATE',
    (name) =>
      `load engine "${name}" sends on a fixed schedule and needs a request rate: give --rate R (suite field "rate", requests per second above 0), or choose a closed-loop engine with --engine`,
  ),
  engineNotOpen: define(
    'PG_ENGINE_NOT_OPEN',
    (name, open) =>
      `load engine "${name}" is a closed loop and cannot offer a fixed rate (rates, --rates: the r= benchmarks): add --engine ${open.join(' or ')}, or drop the rates`,
  ),
  kneeNeedsOpenEngine: define(
    'PG_KNEE_NEEDS_OPEN_ENGINE',
    (name) =>
      `--find-knee searches for the highest rate every SLO holds at, which needs an engine that sends on a fixed schedule: "${name}" is a closed loop; add --engine vegeta`,
  ),
  kneeNeedsSlo: define(
    'PG_KNEE_NEEDS_SLO',
    () =>
      `--find-knee searches for the highest rate every SLO holds at, and no benchmark has one: give the config an "slo" (e.g. {"p99 latency": "< 50 ms"}) or a "benchmarkSlo"`,
  ),
  engineUnavailable: define(
    'PG_ENGINE_UNAVAILABLE',
    (name, reason) => `load engine "${name}" cannot run here: ${reason}; or choose another with --engine`,
  ),
  loadFailed: define('PG_LOAD_FAILED', (engine, detail) => `the ${engine} load failed: ${detail}`, EXIT.failed),
  variantUnavailable: define('PG_VARIANT_UNAVAILABLE', (variant, reason) => `skipped ${variant}: ${reason}`),
  unknownRef: define(
    'PG_UNKNOWN_REF',
    (ref, repo) => `"${ref}" is not a commit in ${repo}: check the name with \`git log --oneline\`, or fetch it first`,
  ),
  sameSides: define(
    'PG_SAME_SIDES',
    (base, head, sha) =>
      `--base ${base} and --head ${head} are the same commit ${sha.slice(0, 12)}: compare two different commits`,
  ),
  dirtyWorktree: define(
    'PG_DIRTY_WORKTREE',
    (repo) =>
      `${repo} has uncommitted changes, which a comparison of commits would silently leave out: commit or stash them first`,
  ),
  badDependencyPair: define(
    'PG_BAD_DEPENDENCY_PAIR',
    (dep, vs) =>
      `--dep ${dep} and --vs ${vs} must name the same package at two versions, e.g. --dep express@4.21.2 --vs express@5.1.0`,
  ),
  badOverride: define(
    'PG_BAD_OVERRIDE',
    (text) =>
      `--override ${text} is not PKG@SPEC: give a package and a version, range, file: path or git URL, e.g. --override body-parser@2.2.0`,
  ),
  unknownOverride: define(
    'PG_UNKNOWN_OVERRIDE',
    (name, what) =>
      `an override of ${name}, which ${what} does not install anywhere in its tree: check the package's name (npm ls ${name})`,
  ),
  badOverrideTree: define(
    'PG_BAD_OVERRIDE_TREE',
    (what, problem) => `cannot check overrides against ${what}: ${problem}`,
  ),
  describeFailed: define(
    'PG_DESCRIBE_FAILED',
    (where, detail) =>
      `the describe step of ${where} failed: ${detail}; run \`node servers/describe.js <servers dir> <variant>\` there to see why`,
  ),
  codeConfig: define(
    'PG_CODE_CONFIG',
    (file) =>
      `${file} is code, and perfgate no longer loads a config that is code (the commit under test could change what measures it): write the same object as perfgate.config.json beside it and delete ${file}`,
  ),
  sandboxRequired: define(
    'PG_SANDBOX_REQUIRED',
    (reason) =>
      `refusing to run the code under test unsandboxed on a runner: ${reason}. Install bubblewrap (node scripts/setup.mjs does, as root), or opt out in the workflow with PERFGATE_ALLOW_UNSANDBOXED=true`,
  ),
  sandboxUnreachable: define(
    'PG_SANDBOX_UNREACHABLE',
    (dir, closed, uid, inTemp) =>
      `the sandbox cannot reach ${dir}: run as root, perfgate sandboxes a side as uid ${uid}, which cannot pass through ${closed.join(', ')}; ${
        inTemp
          ? `set TMPDIR to a directory every user can pass through (such as /tmp), or let them pass: chmod o+x ${closed.join(' ')}`
          : `let every user pass through (not list) ${closed.length > 1 ? 'them' : 'it'}: chmod o+x ${closed.join(' ')}, or move the project to a directory they can pass through (such as /srv or /opt)`
      }`,
  ),
  installFailed: define('PG_INSTALL_FAILED', (what, detail) => `could not install ${what}: ${detail}`),
  lockedVersionMismatch: define(
    'PG_LOCKED_VERSION',
    (spec, lockFile, locked) =>
      `${spec} is not what ${lockFile} locks (${locked}): name the locked version, or the lockfile that locks ${spec}`,
  ),
  badRuntime: define(
    'PG_BAD_RUNTIME',
    (text, why) =>
      `runtime "${text}" is not valid: ${why}; give "system", node@<major|version|range> or bun@<version|range>, e.g. node@24, node@22.11.0, bun@1.3`,
  ),
  sameRuntimes: define(
    'PG_SAME_RUNTIMES',
    (base, head, both) =>
      `--runtime ${base} and --vs-runtime ${head} are the same runtime (${both}): give two different runtimes, or --base/--head to compare code`,
  ),
  runtimeNotPublished: define('PG_RUNTIME_NOT_PUBLISHED', (text, pkg, newest) =>
    newest
      ? `no published version of ${pkg} matches runtime "${text}" (the newest is ${newest}): pick a version the registry has (npm view ${pkg} versions)`
      : `the npm registry has no package ${pkg} for runtime "${text}": this platform (${process.platform}-${process.arch}) has no build there`,
  ),
  runtimeRegistryUnreachable: define(
    'PG_RUNTIME_REGISTRY',
    (text, detail, cacheDir) =>
      `cannot resolve runtime "${text}": the npm registry did not answer (${detail}) and the runtime cache ${cacheDir} holds no matching version: check the network and npm's registry setting (npm config get registry), or use a version already cached`,
  ),
  runtimeCacheUnwritable: define(
    'PG_RUNTIME_CACHE',
    (cacheDir, cause) =>
      `cannot install a runtime into ${cacheDir} (${cause}): make it writable, or point PERFGATE_RUNTIME_CACHE at a writable directory`,
  ),
  runtimeInstallFailed: define(
    'PG_RUNTIME_INSTALL',
    (text, what, detail) => `could not install ${what} for runtime "${text}": ${detail}`,
  ),
  runtimeBroken: define(
    'PG_RUNTIME_BROKEN',
    (text, detail) => `runtime "${text}" does not run on this machine: ${detail}`,
  ),
  noAffectedVariant: define(
    'PG_NO_AFFECTED_VARIANT',
    (pkg, known) => `no variant uses the package "${pkg}": variants and their packages are ${known}`,
  ),
  noProjectConfig: define(
    'PG_NO_PROJECT_CONFIG',
    (root) =>
      `no perfgate.config.json at ${root}: create one there that names your server and the requests to measure, e.g.\n` +
      '  { "servers": { "app": { "module": "app.js" } },\n' +
      '    "scenarios": { "home": { "path": "/", "expect": { "status": 200 } } } }\n' +
      'where app.js exports a request handler (an Express app, or (req, res) => ...), or "command": ["node", "server.js"] that listens on $PORT; ' +
      "see perfgate's docs/getting-started.md. Or name a built-in suite with --suite, or a suite file with --config.",
  ),
  notProfilable: define(
    'PG_NOT_PROFILABLE',
    (variant, reason) => `variant "${variant}" cannot be profiled: ${reason}; its comparison stands without a profile`,
  ),
  profileFailed: define(
    'PG_PROFILE_FAILED',
    (detail) => `profiling failed: ${detail}; the comparison's verdicts stand without a profile`,
  ),
  notAncestor: define(
    'PG_NOT_ANCESTOR',
    (good, bad) =>
      `--good ${good} is not an ancestor of --bad ${bad}: bisect searches the first-parent history from good to bad; swap them or pick an older good commit`,
  ),
  noBenchmarkMatch: define(
    'PG_NO_BENCHMARK_MATCH',
    (name, known) => `no benchmark is named "${name}": the suite has ${known.join(', ')}`,
  ),
  interrupted: define(
    'PG_INTERRUPTED',
    (signal) => `interrupted by ${signal}: servers stopped, results written so far are kept`,
  ),
  bisectStepFailed: define(
    'PG_BISECT_STEP_FAILED',
    (sha, status, reason) => `bisect stopped at ${sha.slice(0, 12)}: ${status}: ${reason}`,
    EXIT.failed,
  ),
  calibrationFailed: define(
    'PG_CALIBRATION_FAILED',
    (id, status, reason) => `calibration stopped: ${id} ${status}: ${reason}`,
    EXIT.failed,
  ),
  nothingMeasured: define(
    'PG_NOTHING_MEASURED',
    (what, benchmarks) => {
      const reasons = benchmarks.map(({ id, status, reason }) => `${id}: ${status}: ${oneLine(reason)}`);
      return `${what} measured nothing: no benchmark ran, so there is no result:\n${bullets(reasons)}\nfix what each reason names, or choose benchmarks this machine can run (--variant, --scenario, --connections)`;
    },
    EXIT.failed,
  ),
  neighbourUnavailable: define(
    'PG_NEIGHBOUR_UNAVAILABLE',
    (why) => `--neighbour needs a CPU hog, but ${why}: install it, or calibrate without --neighbour`,
  ),
  neighbourFailed: define(
    'PG_NEIGHBOUR_FAILED',
    (why) => `the --neighbour CPU hog (stress-ng) did not start: ${why}; check the percentage and the server cores`,
    EXIT.failed,
  ),
  tenantFailed: define(
    'PG_TENANT_FAILED',
    (why) => `the --tenant neighbour did not start: ${why}; check the percentage (above 0, at most 100)`,
    EXIT.failed,
  ),
  noBaselineTag: define(
    'PG_NO_BASELINE_TAG',
    (pattern, repo) =>
      `no tag matching "${pattern}" is reachable from HEAD in ${repo}, so the relative trend has no baseline: tag a release (git tag v1.0.0 <commit>), set trend.baseline.tag to the pattern of your release tags, or name a commit (trend.baseline.commit or --baseline REF); a shallow clone has no tags (actions/checkout: fetch-depth: 0)`,
  ),
  unknownBaseline: define(
    'PG_UNKNOWN_BASELINE',
    (ref, repo) =>
      `the baseline "${ref}" is not a commit in ${repo}: fix trend.baseline.commit (or --baseline), or fetch it first (a shallow clone lacks older commits: fetch-depth: 0)`,
  ),
  badBaselines: define(
    'PG_BAD_BASELINES',
    (file, problem) =>
      `the baselines file ${file} ${problem}: it is written by \`perfgate trend\`; restore it from the history branch, or delete it to pin the baseline afresh (the relative trend then restarts)`,
  ),
  toolsMissing: define('PG_TOOL_MISSING', (tools) =>
    tools
      .map(
        ({ name, version, bin, needs }) =>
          `${name} ${version} is not installed at ${bin}: run \`node scripts/setup.mjs --for test\` (needs ${needs.join(', ')} and the package registries)`,
      )
      .join('\n'),
  ),
};

// The GitHub glue: PR comment, upgrade gate, shard merge.
export const githubErrors = {
  missingContext: define(
    'PG_GITHUB_CONTEXT',
    (name) =>
      `${name} is not set: this runs inside GitHub Actions, which sets it; to run it by hand, set it as docs/github-actions.md shows`,
  ),
  badEvent: define(
    'PG_GITHUB_EVENT',
    (file, problem) => `the event payload ${file} ${problem}: this step must run on the event its workflow declares`,
  ),
  api: define(
    'PG_GITHUB_API',
    (method, path, status, detail) =>
      `GitHub API ${method} ${path} answered ${status}${detail ? ` (${detail})` : ''}: check the job's permissions and that the run, pull request or comment still exists`,
    EXIT.failed,
  ),
  hostileArtifact: define(
    'PG_UNTRUSTED_ARTIFACT',
    (problem) =>
      `refused the benchmark artifact: ${problem}. Nothing was posted; the artifact comes from pull-request code, look at the run that uploaded it`,
    EXIT.failed,
  ),
  badLockfile: define(
    'PG_BAD_LOCKFILE',
    (what, problem) =>
      `${what} ${problem}: the upgrade gate compares the package-lock.json (lockfileVersion 2 or 3) of the base and of the pull request`,
  ),
  untrustedLockEntry: define(
    'PG_UNTRUSTED_LOCK_ENTRY',
    (what, key, reason) =>
      `${what} locks ${key} as ${reason}: the upgrade gate installs only exact versions from the npm registry with their sha512 integrity, so nothing was installed; lock a registry release instead (npm install <package>@<version>, or an override in package.json for a dependency)`,
  ),
  // Thrown by the gate (bench/github/workflow-change.js), and the request job's reply (trusted-trigger.js).
  workflowChange: define(
    'PG_WORKFLOW_CHANGE',
    (changes) =>
      `the pull request changes its workflows beyond actions/setup-node's node-version, so the upgrade gate does not measure it:\n${bullets(changes)}\nmove the other workflow changes to a pull request of their own (a workflow change the gate measures is a new node-version of actions/setup-node, nothing else)`,
  ),
  badSettings: define(
    'PG_GITHUB_SETTINGS',
    (where, problems) =>
      `${where} has github settings the request job cannot use:\n${bullets(problems)}\nfix them on the default branch: github.automatic is "insiders" (the default) or "approved-only", github.drafts true or false`,
  ),
  duplicateBenchmark: define(
    'PG_DUPLICATE_BENCHMARK',
    (name, first, second) =>
      `benchmark "${name}" is in two shards (${first} and ${second}): give each shard different variants so that every trend line has one value per run`,
  ),
};

// The history store and publishing.
export const historyErrors = {
  malformed: define(
    'PG_HISTORY_MALFORMED',
    (file, problem) =>
      `benchmark data ${file} is malformed: ${problem}. Nothing was written; restore it from git or move it aside (a new history starts empty)`,
  ),
  invalidRun: define(
    'PG_HISTORY_INVALID_RUN',
    (problems) => `refused to record a run with invalid data: ${problems.join('; ')}`,
  ),
  badInput: define(
    'PG_BENCHMARK_INPUT',
    (file, problem) =>
      `benchmark input ${file} ${problem}: pass a github-action-benchmark input file (a JSON array of {name, value, unit}) such as the benchmark-action-*.json files that \`${commandLine('bench')}\` writes`,
  ),
  publishFailed: define(
    'PG_PUBLISH_FAILED',
    (what, detail, fix) =>
      `publishing failed, the pages branch was not changed: ${what}${detail ? `\n${detail}` : ''}\n${fix}`,
  ),
  branchUnreadable: define(
    'PG_BRANCH_UNREADABLE',
    (where, detail) =>
      `cannot read branch ${where}${detail ? `:\n${detail}` : ''}\ncheck --repo (a path or URL of a git repository) and your access to it`,
  ),
  badState: define(
    'PG_DETECT_STATE',
    (file, problem) =>
      `the reported change points ${file} are unreadable: ${problem}. Nothing was reported; move the file aside to start again (every current change point is then reported once more)`,
    EXIT.failed,
  ),
  publishInterrupted: define(
    'PG_PUBLISH_INTERRUPTED',
    () =>
      'publishing was interrupted: if it was pushing, the run may have landed; look at the branch before publishing again, so that the run is not added twice',
  ),
};
