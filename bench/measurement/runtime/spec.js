// A runtime as a user writes it: "system" (the Node.js that runs perfgate, the default), or
// "<name>@<version|range>": node@24, node@22.11.0, node@">=22 <24", bun@1.3; a bare name is its
// newest release. Pure: no processes, no network.
import semver from 'semver';
import { errors } from '../../core/errors.js';
import { RUNTIME_NAMES } from './kinds.js';

export const SYSTEM = 'system';

/**
 * @param {string} text
 * @returns {{text: string, system: true} | {text: string, name: string, range: string, exact: boolean}}
 */
export function parseRuntimeSpec(text) {
  const trimmed = String(text ?? '').trim();
  if (trimmed === SYSTEM) return { text: SYSTEM, system: true };
  const at = trimmed.indexOf('@');
  const name = at < 0 ? trimmed : trimmed.slice(0, at);
  const version = at < 0 ? '' : trimmed.slice(at + 1).trim();
  if (!RUNTIME_NAMES.includes(name))
    throw errors.badRuntime(trimmed, `"${name}" is not a runtime perfgate installs (${RUNTIME_NAMES.join(', ')})`);
  if (at >= 0 && !version) throw errors.badRuntime(trimmed, 'the version after "@" is empty');
  const range = version || '*';
  if (!semver.validRange(range))
    throw errors.badRuntime(trimmed, `"${version}" is neither a version nor a semver range`);
  return { text: trimmed, name, range, exact: Boolean(semver.valid(range)) };
}

// The runtimes of a list ("node@20,node@24" or an array), each once, in the order given.
export function parseRuntimeList(list) {
  const texts = [list]
    .flat()
    .flatMap((item) => String(item).split(','))
    .map((item) => item.trim())
    .filter(Boolean);
  return [...new Map(texts.map((text) => [text, parseRuntimeSpec(text)])).values()];
}

// The newest version of `versions` within `range`; prereleases only when the range names one.
export const newestMatching = (versions, range) => semver.maxSatisfying(versions, range);
