// The one argument runner of every entry point in scripts/: a command is a table of options
// (type, default, help text), from which the parser (node:util parseArgs), the checks and
// `--help` all come, so that a flag, its default and its documentation cannot drift apart.
// Errors from the catalogue (bench/core/errors.js) become a printed message and their exit code.
// Node built-ins only: scripts/setup.mjs runs it before node_modules exist.
import { parseArgs } from 'node:util';
import { errors, EXIT, PerfgateError } from '../core/errors.js';
import { commandLine, runAsCommand } from '../core/invocation.js';
import { printable } from '../core/text.js';

// Value types beyond string and boolean: what a value must be, as the help and errors say it.
const NUMBER_TYPES = {
  number: { says: 'a number', ok: () => true },
  positive: { says: 'a number > 0', ok: (n) => n > 0 },
  nonNegative: { says: 'a number >= 0', ok: (n) => n >= 0 },
  probability: { says: 'a number in (0, 1]', ok: (n) => n > 0 && n <= 1 },
  // count: at least `min` (default 1).
  count: {
    says: (spec) => `a whole number of at least ${spec.min ?? 1}`,
    ok: (n, spec) => Number.isInteger(n) && n >= (spec.min ?? 1),
  },
  whole: { says: 'a whole number >= 0', ok: (n) => Number.isInteger(n) && n >= 0 },
  port: {
    says: 'a port number (0 to 65535, 0: any free port)',
    ok: (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
  },
};
const TYPES = ['string', 'boolean', 'list', 'choice', ...Object.keys(NUMBER_TYPES)];
const rule = (spec) => {
  const { says } = NUMBER_TYPES[spec.type];
  return typeof says === 'function' ? says(spec) : says;
};

const HELP = { type: 'boolean', short: 'h', help: 'print this help and exit' };

// Repeated list flags add up (--variant a --variant b,c); any other flag given twice: the last wins.
const repeatable = (spec) => spec.type === 'list' || spec.multiple;

function convert(name, spec, raw, problems) {
  if (spec.type === 'list')
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  if (spec.type === 'choice') {
    if (spec.choices.includes(raw)) return raw;
    problems.push(`--${name} must be one of ${spec.choices.join(', ')}, not "${raw}"`);
    return undefined;
  }
  const number = NUMBER_TYPES[spec.type];
  if (!number) return raw;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (Number.isFinite(value) && number.ok(value, spec)) return value;
  problems.push(`--${name} must be ${rule(spec)}, not "${raw}"`);
  return undefined;
}

function readTokens(command, options, args, problems) {
  // strict: false, so that every problem is collected and reported at once, not the first one.
  const parserOptions = Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [
      name,
      { type: spec.type === 'boolean' ? 'boolean' : 'string', ...(spec.short ? { short: spec.short } : {}) },
    ]),
  );
  const { tokens } = parseArgs({ args, options: parserOptions, strict: false, allowPositionals: true, tokens: true });
  const given = {};
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const negated = token.name.startsWith('no-') && options[token.name.slice(3)]?.negatable;
    const name = negated ? token.name.slice(3) : token.name;
    const spec = options[name];
    if (!spec) {
      problems.push(`unknown option ${token.rawName}${command.unknownHint ? ` (${command.unknownHint})` : ''}`);
    } else if (negated) {
      given[name] = false;
    } else if (spec.type === 'boolean') {
      if (token.value !== undefined) problems.push(`--${name} takes no value, got "${token.value}"`);
      given[name] = true;
    } else if (token.value === undefined) {
      problems.push(`--${name} needs a value: --${name} ${spec.value ?? 'VALUE'}`);
      given[name] ??= null;
    } else {
      const value = convert(name, spec, token.value, problems) ?? null;
      given[name] = repeatable(spec) && value !== null ? [...(given[name] ?? []), ...[value].flat()] : value;
    }
  }
  return { given, positionals };
}

function checkPositionals(command, positionals, problems) {
  const { min = 0, max = 0, missing } = command.positionals ?? {};
  if (positionals.length < min) problems.push(missing ?? `missing ${command.positionals.value}`);
  for (const word of positionals.slice(max))
    problems.push(`unexpected argument "${word}": every value follows its option`);
}

// bin/perfgate.js runs the same scripts as `perfgate <command>`: their help and errors then say so.
export { commandLine, invokedAs } from '../core/invocation.js';
const invocation = (command) => (runAsCommand() ? commandLine(command.name) : command.invocation);

export function usageLine(command) {
  return `usage: ${invocation(command)}${command.synopsis ? ` ${command.synopsis}` : ''}`;
}

// `argv` -> { values, positionals, rest } (rest: the words after `--` of a passThrough command),
// or { help: true }; bad input throws PG_BAD_ARGS with every problem found.
export function parseCommandLine(command, argv) {
  const options = { ...command.options, help: HELP };
  for (const [name, spec] of Object.entries(options)) {
    if (!TYPES.includes(spec.type))
      throw new TypeError(`option --${name} of ${command.name} has unknown type "${spec.type}"`);
  }
  const split = command.passThrough ? argv.indexOf('--') : -1;
  const tokenProblems = [];
  const { given, positionals } = readTokens(
    command,
    options,
    split === -1 ? argv : argv.slice(0, split),
    tokenProblems,
  );
  if (given.help) return { help: true };
  const values = {};
  const missing = [];
  for (const [name, spec] of Object.entries(command.options)) {
    // null: given, but its problem is already reported.
    if (spec.required && given[name] === undefined) missing.push(`--${name} is required`);
    values[name] = given[name] ?? spec.default;
  }
  checkPositionals(command, positionals, missing);
  // What the command finds contradictory first, then each bad flag, then what is missing.
  const problems = [...(command.check?.(values, positionals) ?? []), ...tokenProblems, ...missing];
  if (problems.length)
    throw errors.badArgs(problems, `${usageLine(command)}\n${invocation(command)} --help lists every option`);
  return { values, positionals, rest: split === -1 ? [] : argv.slice(split + 1) };
}

function optionLine(name, spec) {
  const value =
    spec.type === 'boolean' ? '' : ` ${spec.value ?? (spec.type === 'choice' ? spec.choices.join('|') : 'VALUE')}`;
  const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.negatable ? `, --no-${name}` : ''}${value}`;
  const shown = spec.defaultText ?? spec.default;
  const notes = [
    spec.type !== 'number' && NUMBER_TYPES[spec.type] ? rule(spec) : '',
    shown === undefined ? '' : `default ${shown}`,
    spec.required ? 'required' : '',
  ].filter(Boolean);
  const help = `${spec.help}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  return { flag, help };
}

// The --help text, generated from the command's table.
export function helpText(command) {
  const lines = Object.entries({ ...command.options, help: HELP }).map(([name, spec]) => optionLine(name, spec));
  const width = Math.min(30, Math.max(...lines.map(({ flag }) => flag.length))) + 2;
  const table = lines.map(({ flag, help }) =>
    flag.length < width ? `  ${flag.padEnd(width)}${help}` : `  ${flag}\n  ${' '.repeat(width)}${help}`,
  );
  return [
    usageLine(command),
    ...(command.summary ? ['', command.summary] : []),
    '',
    'options:',
    ...table,
    ...(command.passThrough ? ['', `after --: ${command.passThrough}`] : []),
  ].join('\n');
}

// A network failure of fetch (no answer, or none in time) is a failure of the call, not of the input.
const isNetworkFailure = (error) => error?.name === 'TimeoutError' || error?.message === 'fetch failed';

export function exitCodeOf(error) {
  if (error instanceof PerfgateError) return error.exitCode;
  return isNetworkFailure(error) ? EXIT.failed : undefined;
}

// Prints a catalogued error, one printable line at a time (messages may quote untrusted
// files), and sets its exit code.
export function reportError(error, exitCode = exitCodeOf(error)) {
  for (const line of error.message.split('\n')) console.error(`perfgate: ${printable(line, 500)}`);
  process.exitCode = exitCode;
}

// Runs `main({ values, positionals, rest })` of a command; main returns its exit code (default 0).
// A catalogued error is reported (reportError) and exits with its code; anything else is a bug
// and keeps its stack.
export async function runCommand(command, main, argv = process.argv.slice(2)) {
  try {
    const parsed = parseCommandLine(command, argv);
    if (parsed.help) {
      console.log(helpText(command));
      process.exitCode = EXIT.ok;
      return;
    }
    process.exitCode = (await main(parsed)) ?? EXIT.ok;
  } catch (error) {
    const exitCode = exitCodeOf(error);
    if (exitCode === undefined) throw error;
    reportError(error, exitCode);
  }
}
