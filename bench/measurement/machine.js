// What a result must say about where it was measured: numbers from different machines,
// Node versions or framework versions are not comparable, and a reader must be able to tell.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { runnerOf } from '../../site/shared/runner.js';
import { gitOutput } from '../core/git.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function readOptional(path) {
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : undefined;
}

const git = (args, cwd) => gitOutput(args, cwd)?.trim();

export function gitInfo(cwd = process.cwd()) {
  const commit = git(['rev-parse', 'HEAD'], cwd);
  if (!commit) return { commit: null };
  return {
    commit,
    branch: git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd),
    dirty: git(['status', '--porcelain'], cwd) !== '',
  };
}

// The installed version of each npm package in a project's node_modules (null: not installed).
export function packageVersions(names, root = PROJECT_ROOT) {
  return Object.fromEntries(
    [...new Set(names)].sort().map((name) => {
      const manifest = readOptional(`${root}/node_modules/${name}/package.json`);
      return [name, manifest ? JSON.parse(manifest).version : null];
    }),
  );
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    arch: os.arch(),
    platform: os.platform(),
    kernel: os.release(),
    memoryBytes: os.totalmem(),
    node: process.version,
    governor: readOptional('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor') ?? null,
    // github-hosted, self-hosted, or null outside GitHub Actions (site/shared/runner.js).
    runner: runnerOf(process.env),
  };
}
