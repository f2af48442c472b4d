// A user's repository as perfgate sees it: the perfgate.config.json at its root,
// validated, and turned into the suite config that bench and compare run. Its servers become
// command variants rooted at the repository, its scenarios are served by each of them, and
// its reference variants (built-in) run beside them on built-in scenarios.
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';
import { SCENARIO_NAMES } from '../../servers/contract/scenarios.js';
import { validateWith } from '../config/schema.js';
import { expandSpecs } from '../measurement/specs.js';
import { INSTALLED } from '../core/invocation.js';
import { errors } from '../core/errors.js';
import { readInputJson } from '../core/read-file.js';
import { gitOutput } from '../core/git.js';
import { bandProblems, bandsFrom, defaultBands } from '../results/metrics.js';
import { unexpandedVariables } from '../measurement/process/server.js';
import { builtInVariantNames } from '../measurement/variants.js';
import { projectSchema } from './schema.js';

const CONFIG_FILE = 'perfgate.config.json';
// A config that is code would run inside the harness, and the commit under test could change
// what measures it: perfgate reads JSON only, and says so to a repository that still has one.
const CODE_CONFIG_FILES = ['perfgate.config.mjs', 'perfgate.config.js', 'perfgate.config.cjs'];
const PROJECT_DEFAULTS = { connections: [10, 100], install: ['npm', 'ci', '--no-audit', '--no-fund'] };

// The repository's top directory, or `cwd` itself outside git.
export function repositoryRoot(cwd = process.cwd()) {
  return gitOutput(['rev-parse', '--show-toplevel'], cwd)?.trim() ?? resolve(cwd);
}

function findConfigFile(root) {
  const code = CODE_CONFIG_FILES.find((name) => existsSync(join(root, name)));
  if (code) throw errors.codeConfig(join(root, code));
  const file = join(root, CONFIG_FILE);
  return existsSync(file) ? file : undefined;
}

const readProjectConfig = (file) =>
  readInputJson(file, (problem, { kind, error }) =>
    errors.badConfig(file, [kind === 'notJson' ? `not valid JSON: ${error.message}` : problem]),
  );

const manifestName = (root) => {
  const manifest = join(root, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).name : undefined;
};
const packageName = (root) =>
  manifestName(root)
    ?.replace(/^@[^/]+\//, '')
    .replace(/[^A-Za-z0-9._-]/g, '-');

// What a project's results and its trend on the site are named.
const nameOf = (config, root) => config.name ?? packageName(root) ?? 'project';

// The suite config of a validated project config.
function projectSuite(project, root) {
  const { servers, scenarios, reference, install, copy, thresholds, overrides, github, ...settings } = project;
  return {
    ...settings,
    name: nameOf(project, root),
    // Rates alone run no tiers: their own benchmarks, not the default's.
    connections: settings.connections ?? (settings.rates ? undefined : PROJECT_DEFAULTS.connections),
    variants: Object.keys(servers),
    scenarios: Object.keys(scenarios),
    commands: Object.fromEntries(
      Object.entries(servers).map(([name, server]) => [
        name,
        { ...server, cwd: resolve(root, server.cwd ?? '.'), scenarios },
      ]),
    ),
    ...(reference ? { reference } : {}),
  };
}

/**
 * The name of the project at the repository holding `cwd`, read without checking the rest of its
 * config (publishing needs only this), or null when it has no perfgate.config.
 */
export function projectName(cwd = process.cwd()) {
  const root = repositoryRoot(cwd);
  const configFile = findConfigFile(root);
  return configFile ? nameOf(readProjectConfig(configFile), root) : null;
}

// "copy" names paths inside the repository that are there now (a side gets them from here).
const copyProblems = (copy = [], root) =>
  copy.flatMap((path) => {
    const inside = relative(root, resolve(root, path));
    if (isAbsolute(path) || inside.startsWith('..') || !inside)
      return [`copy: "${path}" is not a path inside the repository: give it relative to ${root}`];
    return existsSync(join(root, inside)) ? [] : [`copy: no file or folder "${path}" in ${root}`];
  });

// Which benchmarks a thresholds key names: a full id, "server scenario", or a scenario.
export const keyMatches = (key, spec) =>
  key === spec.id || key === `${spec.variant} ${spec.scenario}` || key === spec.scenario;

function thresholdProblems(thresholds = {}, suite) {
  const specs = expandSpecs({ options: {}, ...suite });
  const unnamed = Object.keys(thresholds)
    .filter((key) => !specs.some((spec) => keyMatches(key, spec)))
    .map(
      (key) =>
        `thresholds.${key}: names no benchmark (use "<server> <scenario> c=<N>" or "... r=<rate>", "<server> <scenario>" or a scenario; benchmarks: ${specs.map((spec) => spec.id).join(', ')})`,
    );
  // Each entry's bands against the defaults it leaves in place.
  const unusable = Object.entries(thresholds).flatMap(([key, given]) =>
    bandProblems(bandsFrom(given, 'config', defaultBands()), 'config').map(
      (problem) => `thresholds.${key}: ${problem}`,
    ),
  );
  return [...unnamed, ...unusable];
}

// Per benchmark id, the settings of compare that its thresholds entry replaces (the most specific key wins).
export function benchmarkSettings(thresholds = {}, specs, settings) {
  const own = {};
  for (const spec of specs) {
    const keys = Object.keys(thresholds)
      .filter((key) => keyMatches(key, spec))
      .sort((a, b) => a.length - b.length);
    if (!keys.length) continue;
    const given = Object.assign({}, ...keys.map((key) => thresholds[key]));
    own[spec.id] = {
      // Every judged metric's band, as compare's flags set them (bench/results/metrics.js: bandConfig).
      thresholds: { ...settings.thresholds, ...bandsFrom(given, 'config', settings.thresholds) },
      failThreshold: given.failThreshold === undefined ? settings.failThreshold : given.failThreshold / 100,
    };
  }
  return own;
}

// A program named without a directory is looked up on PATH, as the shell would.
function programExists(program, cwd) {
  if (program.includes('/')) return existsSync(resolve(cwd, program));
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)));
}

// What the schema cannot see: a server whose program or module is not there.
function serverFileProblems(servers, root) {
  return Object.entries(servers).flatMap(([name, server]) => {
    const cwd = resolve(root, server.cwd ?? '.');
    if (server.command && !programExists(server.command[0], cwd)) {
      return [
        `servers.${name}.command: "${server.command[0]}" is neither a program on PATH nor a file in ${cwd}: install it, or fix the command`,
      ];
    }
    const unexpanded = server.command ? unexpandedVariables(server.command) : [];
    if (unexpanded.length)
      return [
        `servers.${name}.command: ${unexpanded.map((word) => `"${word}"`).join(', ')} would reach the server as written: a command is not run through a shell, and only $PORT and $HOST are replaced; put other variables in "env", or run the command with ["sh", "-c", "..."]`,
      ];
    if (server.module && !existsSync(resolve(cwd, server.module)))
      return [`servers.${name}.module: no file "${server.module}" in ${cwd}`];
    return [];
  });
}

/**
 * The project at the repository holding `cwd`, or null when it has no perfgate.config.
 * @returns {Promise<null | {root: string, configFile: string, config: object, suite: object, install: string[],
 *   copy: string[]}>}
 */
export async function loadProject(cwd = process.cwd()) {
  const root = repositoryRoot(cwd);
  const configFile = findConfigFile(root);
  if (!configFile) return null;
  const config = readProjectConfig(configFile);
  const names = { builtInNames: builtInVariantNames(), builtInScenarios: SCENARIO_NAMES };
  const problems = validateWith(projectSchema(names), config, 'servers');
  const suite = problems.length ? null : projectSuite(config, root);
  problems.push(
    ...(suite
      ? [
          ...serverFileProblems(config.servers, root),
          ...thresholdProblems(config.thresholds, suite),
          ...copyProblems(config.copy, root),
        ]
      : []),
  );
  if (problems.length) throw errors.badConfig(configFile, problems);
  return {
    root,
    configFile,
    config,
    suite,
    install: config.install ?? PROJECT_DEFAULTS.install,
    copy: config.copy ?? [],
  };
}

/**
 * What a command runs when its command line names no suite and no config file: the project's
 * perfgate.config; else, for perfgate run from its own checkout, the default suite (its own
 * servers/); for an installed perfgate, an error that says how to create a config.
 */
export async function withProject(request, cwd = process.cwd()) {
  if (request.suite || request.configFile) return { ...request, project: null };
  const project = await loadProject(cwd);
  if (project) return { ...request, project, configFile: project.configFile, fromProject: project.suite };
  const root = repositoryRoot(cwd);
  if (!INSTALLED) return { ...request, project: null };
  throw errors.noProjectConfig(root);
}
