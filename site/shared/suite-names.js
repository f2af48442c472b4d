// A history's chart groups (github-action-benchmark's suites), named after the project (its
// config's `name`), so that the site shows a project's trend under its own name; perfgate's own
// runs go by "perfgate". The commands name the groups, the site reads the project back.
import { withoutHostedLabel } from './runner.js';

export const suiteNames = (project = 'perfgate') => ({
  bigger: `${project} throughput`,
  smaller: `${project} latency`,
});
// The relative trend's two suites (bench/comparison/trend/: head / pinned baseline, one per direction), named
// after the project the same way, so a project's relative lines sit beside its absolute ones.
export const trendSuiteNames = (project = 'perfgate') => {
  const names = suiteNames(project);
  return { bigger: `${names.bigger} vs baseline`, smaller: `${names.smaller} vs baseline` };
};
// bench --find-knee's chart group: its runs are not bench's, so the throughput and latency groups
// keep one point per commit.
export const kneeSuiteName = (project = 'perfgate') => `${project} knee`;

const SUFFIXES = [...Object.values(suiteNames('')), ...Object.values(trendSuiteNames('')), kneeSuiteName('')];

// The project whose chart groups (a hosted runner's included, ./runner.js) these are, when they all name the same one; else null (groups
// named otherwise, or several projects' histories shown together).
export function projectOfSuites(names) {
  const projects = new Set(
    names.map(withoutHostedLabel).map((name) => {
      const suffix = SUFFIXES.find((each) => name.length > each.length && name.endsWith(each));
      return suffix ? name.slice(0, -suffix.length) : null;
    }),
  );
  const [project] = projects;
  return projects.size === 1 && project !== null ? project : null;
}
