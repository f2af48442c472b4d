// Runs github-action-benchmark's own released code (its dist/, at the pinned commit) outside
// GitHub Actions, for scripts/check-action-format.mjs: its extractResult and writeBenchmark, with
// only git mocked (no fetch, switch, commit or push), the clock fixed, and comments, alerts and
// summaries off. CommonJS, because the action's dist is.
//   node scripts/lib/run-action-write.cjs ACTION_DIR SPEC_FILE
// SPEC_FILE: { now, dataDir, runs: [{ name, tool, file }] }; the action writes DATA_DIR/data.js
// relative to the working directory, as it does in a checkout of gh-pages.
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

async function main() {
  const [actionDir, specFile] = process.argv.slice(2);
  const spec = JSON.parse(readFileSync(specFile, 'utf8'));
  Date.now = () => spec.now;
  const git = require(join(actionDir, 'dist/src/git.js'));
  for (const name of ['cmd', 'push', 'pull', 'fetch', 'clone', 'checkout']) git[name] = async () => '';
  const { extractResult } = require(join(actionDir, 'dist/src/extract.js'));
  const { writeBenchmark } = require(join(actionDir, 'dist/src/write.js'));
  for (const run of spec.runs) {
    const bench = await extractResult({
      outputFilePath: run.file,
      tool: run.tool,
      githubToken: undefined,
      ref: undefined,
    });
    await writeBenchmark(bench, {
      name: run.name,
      tool: run.tool,
      ghPagesBranch: 'gh-pages',
      ghRepository: undefined,
      benchmarkDataDirPath: resolve(spec.dataDir),
      githubToken: undefined,
      autoPush: false,
      skipFetchGhPages: true,
      commentAlways: false,
      summaryAlways: false,
      saveDataFile: true,
      commentOnAlert: false,
      failOnAlert: false,
      alertThreshold: 2,
      failThreshold: 2,
      alertCommentCcUsers: [],
      externalDataJsonPath: undefined,
      maxItemsInChart: null,
    });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
