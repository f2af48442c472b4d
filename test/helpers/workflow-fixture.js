// A project's CI workflow with setup-node, as a pull request changes it: the runtime-upgrade
// detector and the gate's workflow check read the same file.
export const setupNodeWorkflow = ({ version = '22', run = 'npm test', matrix } = {}) => `name: ci
on: push
jobs:
  test:
    runs-on: ubuntu-latest
${matrix === undefined ? '' : `    strategy:\n      matrix:\n        node: ${matrix}\n`}    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4
      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 # v4
        with:
          cache: npm
          node-version: ${version}
      - run: ${run}
`;
