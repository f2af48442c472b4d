// A runtime upgrade in a pull request: the Node.js version a project declares, in the files
// where projects declare it (.nvmrc, .node-version, package.json's volta.node and engines.node,
// and the node-version of actions/setup-node in a workflow), differs between the base and the
// head. The upgrade gate then compares the two runtimes on the project's benchmarks
// (compare --runtime node@OLD --vs-runtime node@NEW), each installed from the npm registry by
// bench/measurement/runtime/. Pure text reading, Node built-ins only (the request job installs nothing).

export const RUNTIME_FILES = ['.nvmrc', '.node-version', 'package.json'];
export const WORKFLOWS_DIR = '.github/workflows';
export const isWorkflow = (path) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(path);

// "v22.11.0", "22", " 24.1 # comment" -> "22.11.0", "22", "24.1"; an alias (lts/*, node, latest),
// an expression or anything else that is no version or range -> null (not compared).
function nodeVersion(text) {
  const value = String(text ?? '')
    .replace(/\s#.*$/, '')
    .trim()
    .replace(/^['"]|['"]$/g, '')
    .replace(/^v(?=\d)/, '');
  return /^[\d.xX*^~<>=| -]+$/.test(value) && /\d/.test(value) ? value : null;
}

// Every node-version given to actions/setup-node in a workflow's text, in order (line-based: the
// request job has no YAML parser, and these keys sit on lines of their own).
export function setupNodeVersions(workflow) {
  const lines = String(workflow ?? '').split('\n');
  const versions = [];
  lines.forEach((line, index) => {
    if (!/^\s*(-\s+)?uses:\s*['"]?actions\/setup-node@/.test(line)) return;
    const stepIndent = line.search(/\S/);
    for (const next of lines.slice(index + 1)) {
      if (!next.trim() || next.trim().startsWith('#')) continue;
      const indent = next.search(/\S/);
      if (indent < stepIndent || (indent === stepIndent && next.trim().startsWith('-'))) break;
      const found = /^\s*node-version:\s*(.+)$/.exec(next);
      if (found) {
        const version = nodeVersion(found[1]);
        if (version) versions.push(version);
        break;
      }
    }
  });
  return versions;
}

// The one change of a workflow that an upgrade-gate request may carry is actions/setup-node's
// node-version. The request job screens the pull request's patch of a workflow (GitHub's unified
// diff of that file) line by line: every removed and added line must be a node-version line with a
// version (not an alias, an expression or a matrix list), in pairs. The gate then proves it on the parsed YAML of both versions (workflow-change.js).
const isNodeVersionLine = (line) => nodeVersion(/^\s*node-version:(.*)$/.exec(line)?.[1]) !== null;

/** The first changed line of a workflow's patch that is not a node-version line, or null when there is none. */
export function patchBeyondNodeVersion(patch) {
  const changed = String(patch)
    .split('\n')
    .filter((line) => /^[+-]/.test(line));
  const other = changed.find((line) => !isNodeVersionLine(line.slice(1)));
  if (other !== undefined) return other;
  const added = changed.filter((line) => line.startsWith('+')).length;
  // A node-version line added or removed (not changed) is a change of its own.
  return added * 2 === changed.length ? null : changed[0];
}

const manifestOf = (text) => {
  try {
    return JSON.parse(text ?? '{}') ?? {};
  } catch {
    return {};
  }
};

/**
 * Where a side declares its Node.js version: [{ source, version }], in the order they are asked
 * (the first that changes decides). files: path -> text (absent: undefined), workflows included.
 */
export function declaredRuntimes(files) {
  const manifest = manifestOf(files['package.json']);
  const declared = [
    { source: '.nvmrc', version: nodeVersion(files['.nvmrc']) },
    { source: '.node-version', version: nodeVersion(files['.node-version']) },
    { source: 'package.json volta.node', version: nodeVersion(manifest.volta?.node) },
    // A range (">=22") is measured at the lowest version it allows: the oldest Node it claims.
    { source: 'package.json engines.node', version: /\d+(\.\d+){0,2}/.exec(nodeVersion(manifest.engines?.node))?.[0] },
    ...Object.keys(files)
      .filter(isWorkflow)
      .sort()
      .flatMap((path) =>
        setupNodeVersions(files[path]).map((version, index) => ({
          source: `${path} actions/setup-node node-version${index ? ` #${index + 1}` : ''}`,
          version,
        })),
      ),
  ];
  return declared.filter((each) => each.version);
}

/**
 * The runtime upgrade between two sides' files, or [] when the declared Node.js version did not
 * change: [{ kind: 'runtime', name: 'node', from, to, source }] (one: the first source that changed).
 */
export function changedRuntime(baseFiles, headFiles) {
  const before = new Map(declaredRuntimes(baseFiles).map((each) => [each.source, each.version]));
  const changed = declaredRuntimes(headFiles).find(
    (each) => before.has(each.source) && before.get(each.source) !== each.version,
  );
  return changed
    ? [{ kind: 'runtime', name: 'node', from: before.get(changed.source), to: changed.version, source: changed.source }]
    : [];
}

/**
 * The files of `sha` where a Node.js version is declared, read through the REST API (the
 * request job checks nothing out): path -> text, workflows included; a file that is not there is left out.
 */
export async function runtimeFilesAt({ api, repository, sha }) {
  const contents = (path) =>
    api.request('GET', `/repos/${repository}/contents/${path}?ref=${sha}`, undefined, { allow: [404] });
  const text = (entry) =>
    typeof entry?.content === 'string' ? Buffer.from(entry.content, 'base64').toString('utf8') : undefined;
  const listing = await contents(WORKFLOWS_DIR);
  const workflows = (Array.isArray(listing) ? listing : [])
    .filter((entry) => entry.type === 'file' && isWorkflow(entry.path))
    .map((entry) => entry.path);
  const paths = [...RUNTIME_FILES, ...workflows];
  const found = await Promise.all(paths.map(async (path) => [path, text(await contents(path))]));
  return Object.fromEntries(found.filter(([, value]) => value !== undefined));
}
