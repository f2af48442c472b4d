// Which kind of runner measured a run: a GitHub-hosted one is a shared virtual machine whose
// absolute figures wander with its neighbours and its CPU model, so its lines are never joined
// with a steady machine's. Its github-action-benchmark entries carry the fact "runner:
// github-hosted"; the site and npm run detect read each such run into a chart group of its own,
// labelled so.
import { parseExtra } from './extra.js';

export const HOSTED_RUNNER = 'github-hosted';
export const HOSTED_LABEL = 'hosted runner';

// GitHub sets RUNNER_ENVIRONMENT to "github-hosted" or "self-hosted" on its runners; anything
// else (a run outside Actions) records no runner.
export const runnerOf = (env) =>
  env.RUNNER_ENVIRONMENT === HOSTED_RUNNER || env.RUNNER_ENVIRONMENT === 'self-hosted' ? env.RUNNER_ENVIRONMENT : null;

// The fact line an entry of a hosted run carries (none for any other run).
export const runnerFacts = (machine) => (machine?.runner === HOSTED_RUNNER ? [`runner: ${HOSTED_RUNNER}`] : []);
export const isHostedFacts = (facts) => facts.runner === HOSTED_RUNNER;
// A run (an entry of data.js) is hosted when its benches say so: they all share its machine.
export const isHostedRun = (benches, factsOf = parseExtra) =>
  benches.some((bench) => bench !== null && typeof bench === 'object' && isHostedFacts(factsOf(bench.extra)));

// A hosted run's chart group: its suite's name, labelled (once: a workflow may publish hosted
// runs under a labelled name already, as bench-hosted-main does).
const SUFFIX = ` · ${HOSTED_LABEL}`;
export const withoutHostedLabel = (suite) => (suite.endsWith(SUFFIX) ? suite.slice(0, -SUFFIX.length) : suite);
export const hostedSuiteName = (suite) => `${withoutHostedLabel(suite)}${SUFFIX}`;
