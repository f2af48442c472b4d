// Turns what the user asked for (a named suite, an optional config file, command-line
// overrides) into one validated suite config. Later sources win: defaults < suite < file < flags.
import { SCENARIO_NAMES } from '../../servers/contract/scenarios.js';
import { ENGINES, engineFor } from '../measurement/engines/seam.js';
import { isOpen, loadPointOf, MODELS } from '../../site/shared/load-point.js';
import { errors } from '../core/errors.js';
import { readInputJson } from '../core/read-file.js';
import { parseRuntimeList, resolveRuntimes } from '../measurement/runtime/resolve.js';
import { placeOnRuntime } from '../measurement/runtime/variant.js';
import { builtInVariantNames, loadVariants } from '../measurement/variants.js';
import { validateSuite } from './schema.js';
import { sloProblems, unmatchedSloKeys } from '../results/slo.js';
import { expandSpecs } from '../measurement/specs.js';
import { SERVER_DEFAULTS, settingsInEnvironment } from './server-settings.js';
import { DEFAULTS, SUITES } from './suites.js';

// A suite config's problems are a list under its name, worded for --config.
const configReadProblem = (_problem, { kind, error }) =>
  kind === 'notJson'
    ? `not valid JSON: ${error.message}`
    : `cannot read the file (${error.code}): check the path given to --config`;

const readConfigFile = (path) =>
  readInputJson(path, (problem, cause) => errors.badConfig(path, [configReadProblem(problem, cause)]));

function namedSuite(name) {
  if (!SUITES[name]) throw errors.unknownSuite(name, Object.keys(SUITES));
  return SUITES[name];
}

// Every (variant, scenario) pair must be served; a built-in variant lists what it serves.
// referenceScenarios: what the suite's reference runs on its own, named when one of them is asked of a server.
function checkPairs(variants, scenarios, referenceScenarios = []) {
  for (const variant of variants) {
    for (const scenario of scenarios) {
      if (!variant.scenarios.includes(scenario))
        throw errors.unsupportedScenario(
          variant.name,
          scenario,
          variant.scenarios,
          referenceScenarios.includes(scenario),
        );
    }
  }
}

// Variants chosen on the command line (--variant) are what runs: a project's reference runs beside its
// servers only when named there too, and then as a reference (on its own scenarios, never in the gate).
function chosenReference({ variants, reference }) {
  const named = reference.variants.filter((name) => variants.includes(name));
  const own = variants.filter((name) => !named.includes(name));
  if (!named.length) return { reference: undefined };
  return own.length ? { variants: own, reference: { ...reference, variants: named } } : {};
}

// The engine can run here and offer each load point (an open one's rate; a closed one's cap, when
// the engine needs one): said before any server starts.
function checkEngineLoads(config) {
  const points = expandSpecs(config).map(loadPointOf);
  const open = ENGINES.filter((engine) => engine.model === MODELS.open);
  if (points.some(isOpen) && !open.some((engine) => engine.name === config.engine))
    throw errors.engineNotOpen(
      config.engine,
      open.map((engine) => engine.name),
    );
  for (const rate of new Set(points.map((point) => (isOpen(point) ? point.rate : config.rate))))
    engineFor(config.engine, rate, config.soakRequests ?? 0);
}

/**
 * @param {{suite?: string, configFile?: string, fromProject?: object, overrides?: object}} request
 *   fromProject: a suite config already read from a project's perfgate.config (bench/project),
 *   reported under the name of configFile
 * @returns {Promise<{config: object, variants: object[]}>}
 */
export async function resolveSuite({ suite, configFile, fromProject, overrides = {} }) {
  const fromFile = fromProject ?? (configFile ? readConfigFile(configFile) : {});
  const suiteName = suite ?? (configFile ? undefined : 'default');
  const base = suiteName ? namedSuite(suiteName) : {};
  const merged = {
    ...DEFAULTS,
    ...base,
    ...fromFile,
    ...overrides,
    options: { ...DEFAULTS.options, ...base.options, ...fromFile.options, ...overrides.options },
    server: { ...SERVER_DEFAULTS, ...base.server, ...fromFile.server, ...overrides.server },
    commands: { ...fromFile.commands },
  };
  merged.name = overrides.name ?? fromFile.name ?? suiteName ?? 'custom';
  if (overrides.variants && merged.reference) Object.assign(merged, chosenReference(merged));
  const commandNames = Object.keys(merged.commands);
  const customScenarios = Object.values(merged.commands).flatMap((command) => Object.keys(command.scenarios ?? {}));
  const problems = [
    ...validateSuite(merged, {
      variantNames: [...builtInVariantNames(), ...commandNames],
      scenarioNames: [...new Set([...SCENARIO_NAMES, ...customScenarios])],
      builtInNames: builtInVariantNames(),
      builtInScenarios: SCENARIO_NAMES,
    }),
    ...settingsInEnvironment(),
    ...sloProblems(merged),
  ];
  if (problems.length) throw errors.badConfig(configFile ?? `suite "${merged.name}"`, problems);
  const unmatched = merged.benchmarkSlo ? unmatchedSloKeys(merged, expandSpecs(merged)) : [];
  if (unmatched.length) throw errors.badConfig(configFile ?? `suite "${merged.name}"`, unmatched);
  checkEngineLoads(merged);
  // A misspelt runtime is said before anything is loaded; each is named as written, once.
  merged.runtimes = parseRuntimeList(merged.runtimes).map((runtime) => runtime.text);
  const variants = await loadVariants(merged.variants, merged.commands);
  checkPairs(variants, merged.scenarios, merged.reference?.scenarios);
  const references = merged.reference ? await loadVariants(merged.reference.variants, {}) : [];
  checkPairs(references, merged.reference?.scenarios ?? []);
  const known = new Set(merged.variants);
  const all = [...variants, ...references.filter((variant) => !known.has(variant.name))];
  const runtimes = await resolveRuntimes(merged.runtimes);
  // One variant per runtime, described on it: each benchmark (bench/measurement/specs.js) runs the one of its runtime.
  const describeOn = (names, runtime) => loadVariants(names, merged.commands, { runtime });
  const names = all.map((variant) => variant.name);
  const placed = (
    await Promise.all(
      runtimes.map(async (runtime) =>
        placeOnRuntime(runtime.system ? all : await describeOn(names, runtime), runtime, describeOn),
      ),
    )
  ).flat();
  // A variant of its own runtime (express-bun) adds that runtime to the run's.
  const used = placed.map((variant) => variant.launch.runtime);
  return {
    config: merged,
    runtimes: used.filter((runtime, index) => used.findIndex((other) => other.spec === runtime.spec) === index),
    variants: placed,
  };
}
