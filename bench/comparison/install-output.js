// Pure: why a side's install failed, from the installer's output. npm prints its reasons first
// ("npm error `npm ci` can only install packages when your package.json and package-lock.json
// ... are in sync", "Missing: x from lock file") and ends with usage text and the path of its
// own log, so its last lines say little: the first error lines and the log's path do.
import { logExcerpt } from '../measurement/process/log-excerpt.js';

const NPM_ERROR = /^npm (?:error|ERR!)\s?(.*)$/;
const NPM_LOG = /A complete log of this run can be found in:?\s*(\S+)/;
// An install script of the project (prepare, prepublish, postinstall, ...) that failed.
const SCRIPT_FAILED = /^npm (?:error|ERR!) command sh -c /m;

// npm's error lines, in paragraphs (separated by empty error lines), without the usage text that
// ends a usage error (the command's description, then "Usage:").
function npmReasons(output) {
  const paragraphs = [[]];
  for (const line of output.split('\n')) {
    const text = NPM_ERROR.exec(line.trim())?.[1]?.trim();
    if (text === undefined) continue;
    if (text) paragraphs.at(-1).push(text);
    else if (paragraphs.at(-1).length) paragraphs.push([]);
  }
  const usage = paragraphs.findIndex((paragraph) => paragraph[0]?.startsWith('Usage:'));
  return (usage === -1 ? paragraphs : paragraphs.slice(0, Math.max(0, usage - 1))).flat();
}

/**
 * @param {string} output  the installer's stdout and stderr
 * @returns {{lines: string, log?: string, scriptFailed: boolean}} lines: the first error lines, " / "-joined
 */
export function installFailure(output, count = 3) {
  const npmErrors = npmReasons(output).filter((line) => !NPM_LOG.test(line) && !/^(?:code|path) \S+$/.test(line));
  return {
    lines: npmErrors.length ? npmErrors.slice(0, count).join(' / ') : logExcerpt(output, count),
    log: NPM_LOG.exec(output)?.[1],
    scriptFailed: SCRIPT_FAILED.test(output),
  };
}
