// Reading a file a user or a workflow gives perfgate (a config, an event payload, a state,
// an input file): its text or its JSON, or the caller's catalogued error (bench/core/errors.js)
// with the problem worded the same everywhere.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

// What went wrong, as the end of a sentence that starts with the file's name.
export const READ_PROBLEMS = {
  missing: () => 'does not exist',
  unreadable: (error) => `cannot be read (${error.message})`,
  notJson: (error) => `is not JSON (${error.message})`,
  notPlain: () => 'is not a plain file (a link, a folder or a device): perfgate reads it only as one',
  tooBig: (error) => `is ${error.size} bytes, more than the ${error.limit} perfgate reads of it`,
};

/**
 * @callback Fail  the catalogued error to throw
 * @param {string} problem  e.g. "does not exist", "is not JSON (Unexpected token ...)"
 * @param {{kind: 'missing'|'unreadable'|'notJson', error: Error}} cause  for callers that word it their own way
 * @returns {Error}
 */

// The file's text; where it does not exist, `options.missing` when given (a file that may be
// absent, such as a state not written yet), else the failure.
export function readInputText(file, fail, options = {}) {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT' && Object.hasOwn(options, 'missing')) return options.missing;
    const kind = error.code === 'ENOENT' ? 'missing' : 'unreadable';
    throw fail(READ_PROBLEMS[kind](error), { kind, error });
  }
}

// The file's JSON (not yet checked against any schema); `options.missing` as readInputText's.
export function readInputJson(file, fail, options = {}) {
  const absent = Symbol('absent');
  const text = readInputText(file, fail, Object.hasOwn(options, 'missing') ? { missing: absent } : {});
  if (text === absent) return options.missing;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(READ_PROBLEMS.notJson(error), { kind: 'notJson', error });
  }
}

/**
 * A file that code under test wrote or chose (a side's package.json, its lockfile): opened without
 * following a link and read only when it is a plain file of at most `maxBytes`, so a link to the
 * runner's files, a device or a huge file costs nothing and reveals nothing. Else as readInputText.
 */
export function readPlainText(file, maxBytes, fail, options = {}) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (error.code === 'ENOENT' && Object.hasOwn(options, 'missing')) return options.missing;
    const kind = error.code === 'ENOENT' ? 'missing' : error.code === 'ELOOP' ? 'notPlain' : 'unreadable';
    throw fail(READ_PROBLEMS[kind](error), { kind, error });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw fail(READ_PROBLEMS.notPlain(), { kind: 'notPlain' });
    if (stat.size > maxBytes) {
      const error = { size: stat.size, limit: maxBytes };
      throw fail(READ_PROBLEMS.tooBig(error), { kind: 'tooBig', error });
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

// readPlainText's JSON (not yet checked against any schema).
export function readPlainJson(file, maxBytes, fail, options = {}) {
  const absent = Symbol('absent');
  const text = readPlainText(file, maxBytes, fail, Object.hasOwn(options, 'missing') ? { missing: absent } : {});
  if (text === absent) return options.missing;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(READ_PROBLEMS.notJson(error), { kind: 'notJson', error });
  }
}
