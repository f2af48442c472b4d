// One catalogue of the errors a user can meet, each saying what went wrong and what to do,
// with a stable code (after fastify's lib/errors.js). Scripts print `message` and exit;
// the runner records `code` and `message` in a failed benchmark.

export class PerfgateError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'PerfgateError';
    this.code = code;
  }
}

const define = (code, format) => (...args) => new PerfgateError(code, format(...args));

export const errors = {
  badConfig: define('PG_BAD_CONFIG', (where, problems) =>
    `invalid suite config (${where}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`),
  unknownSuite: define('PG_UNKNOWN_SUITE', (name, known) =>
    `unknown suite "${name}": choose one of ${known.join(', ')}, or pass a config file with --config`),
  unknownVariant: define('PG_UNKNOWN_VARIANT', (name, known) =>
    `unknown variant "${name}": choose one of ${known.join(', ')}, or declare it under "commands" in a suite config`),
  unsupportedScenario: define('PG_UNSUPPORTED_SCENARIO', (variant, scenario, supported) =>
    `variant "${variant}" does not serve scenario "${scenario}": it serves ${supported.join(', ')}`),
  portInUse: define('PG_PORT_IN_USE', (port) =>
    `port ${port} is in use on this machine: stop the process holding it (see \`ss -ltnp 'sport = :${port}'\`) or choose another port`),
  serverExited: define('PG_SERVER_EXITED', (variant, code, signal, logFile) =>
    `server "${variant}" exited (${signal ? `signal ${signal}` : `code ${code}`}) before the run finished: see its log ${logFile}`),
  serverNotReady: define('PG_SERVER_NOT_READY', (variant, seconds, logFile) =>
    `server "${variant}" did not become ready within ${seconds} s: see its log ${logFile}, or raise readyTimeout`),
  wrongAnswer: define('PG_WRONG_ANSWER', (variant, scenario, diff) =>
    `server "${variant}" answered scenario "${scenario}" wrongly, so it was not measured:\n${diff}`),
  serverHung: define('PG_SERVER_HUNG', (variant, scenario, seconds) =>
    `server "${variant}" did not answer the "${scenario}" check within ${seconds} s: it hangs; see its log`),
  fileLimit: define('PG_FILE_LIMIT', (connections, limit, needed) =>
    `${connections} connections need more open files than the limit of ${limit}; raise the limit to at least ${needed} (\`ulimit -n\`, /etc/security/limits.conf, or the container's nofile limit)`),
  socketsExhausted: define('PG_SOCKETS_EXHAUSTED', (connections, detail) =>
    `the load generator could not open ${connections} sockets (${detail}): lower the tier or raise the open-file limit`),
  variantUnavailable: define('PG_VARIANT_UNAVAILABLE', (variant, reason) => `skipped ${variant}: ${reason}`),
  unknownRef: define('PG_UNKNOWN_REF', (ref, repo) =>
    `"${ref}" is not a commit in ${repo}: check the name with \`git log --oneline\`, or fetch it first`),
  sameSides: define('PG_SAME_SIDES', (base, head, sha) =>
    `--base ${base} and --head ${head} are the same commit ${sha.slice(0, 12)}: compare two different commits`),
  dirtyWorktree: define('PG_DIRTY_WORKTREE', (repo) =>
    `${repo} has uncommitted changes, which a comparison of commits would silently leave out: commit or stash them first`),
  badDependencyPair: define('PG_BAD_DEPENDENCY_PAIR', (dep, vs) =>
    `--dep ${dep} and --vs ${vs} must name the same package at two versions, e.g. --dep express@4.21.2 --vs express@5.1.0`),
  installFailed: define('PG_INSTALL_FAILED', (what, detail) => `could not install ${what}: ${detail}`),
  noAffectedVariant: define('PG_NO_AFFECTED_VARIANT', (pkg, known) =>
    `no variant uses the package "${pkg}": variants and their packages are ${known}`),
  noProjectConfig: define('PG_NO_PROJECT_CONFIG', (root) =>
    `no perfgate.config.json (or .mjs/.js) at ${root}: create one there that names your server and the requests to measure, e.g.\n`
    + '  { "servers": { "app": { "module": "app.js" } },\n'
    + '    "scenarios": { "home": { "path": "/", "expect": { "status": 200 } } } }\n'
    + 'where app.js exports a request handler (an Express app, or (req, res) => ...), or "command": ["node", "server.js"] that listens on $PORT; '
    + 'see perfgate\'s docs/getting-started.md. Or name a built-in suite with --suite, or a suite file with --config.'),
  interrupted: define('PG_INTERRUPTED', (signal) => `interrupted by ${signal}: servers stopped, results written so far are kept`),
};
