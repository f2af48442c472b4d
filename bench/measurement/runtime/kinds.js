// The runtimes perfgate can put under a server, and how each is published on the npm registry:
// Node.js as `node-<platform>-<arch>` (the `node` package's per-platform payload, bin/node
// inside), Bun as `@oven/bun-<platform>-<arch>` (the `bun` package's optional dependencies,
// bin/bun inside). Pure apart from reading the CPU's flags.
import { readFileSync } from 'node:fs';

// Bun's x64 build needs AVX2; the `-baseline` build runs on any x64 (as bun's own install.js picks).
function hasAvx2() {
  try {
    return /\bavx2\b/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return true;
  }
}

// glibc or musl: Node's report names the glibc it runs on, and none on musl.
const isMusl = () => process.platform === 'linux' && !process.report?.getReport().header.glibcVersionRuntime;

export const RUNTIME_KINDS = {
  node: {
    package: () => `node-${process.platform}-${process.arch}`,
    executable: 'bin/node',
    // `node --version` prints "v24.1.0".
    versionOf: (output) => output.trim().replace(/^v/, ''),
  },
  bun: {
    package: () => {
      const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
      const musl = isMusl() ? '-musl' : '';
      const baseline = arch === 'x64' && !hasAvx2() ? '-baseline' : '';
      return `@oven/bun-${process.platform}-${arch}${musl}${baseline}`;
    },
    executable: 'bin/bun',
    nodeAlias: true,
    // Bun's node:http and its own fetch forward; its `undici` is a stub whose Pool cannot send.
    proxyClients: ['http', 'fetch'],
    proxyClientNote: 'Bun replaces the undici package with a built-in stub whose Pool cannot send requests',
    // `bun --version` prints "1.3.0".
    versionOf: (output) => output.trim(),
  },
};

export const RUNTIME_NAMES = Object.keys(RUNTIME_KINDS);
