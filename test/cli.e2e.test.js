// The one argument runner (bench/cli/run.js): every problem of a command line is named with
// the fix, --help comes from the option table, and every entry point in scripts/ uses it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { exitCodeOf, helpText, parseCommandLine } from '../bench/cli/run.js';
import { errors, EXIT, githubErrors, historyErrors, PerfgateError } from '../bench/core/errors.js';
import { PROJECT_ROOT } from './helpers/harness.js';

const COMMAND = {
  name: 'demo',
  invocation: 'node demo.mjs',
  synopsis: '--out DIR [options] FILE...',
  options: {
    out: { type: 'string', value: 'DIR', help: 'where it goes', required: true },
    rounds: { type: 'count', value: 'N', help: 'how many', default: 3 },
    share: { type: 'positive', value: 'PCT', help: 'how much' },
    variant: { type: 'list', value: 'A,B', help: 'which' },
    mode: { type: 'choice', choices: ['fast', 'slow'], help: 'how', default: 'fast' },
    history: { type: 'string', value: 'FILE', negatable: true, help: 'where it is kept' },
    verbose: { type: 'boolean', help: 'say more' },
  },
  positionals: { value: 'FILE...', min: 1, max: Infinity, missing: 'name at least one file' },
};

// The problems of a bad command line, after checking that it is PG_BAD_ARGS with a pointer to --help.
function problemsOf(argv, command = COMMAND) {
  try {
    parseCommandLine(command, argv);
  } catch (error) {
    assert.ok(error instanceof PerfgateError);
    assert.equal(error.code, 'PG_BAD_ARGS');
    assert.equal(exitCodeOf(error), EXIT.badInput);
    assert.match(error.message, /usage: node demo\.mjs .*\nnode demo\.mjs --help lists every option$/);
    return error.message
      .split('\n')
      .filter((line) => line.startsWith('  - '))
      .map((line) => line.slice(4));
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

describe('parseCommandLine', () => {
  test('values are typed, defaulted, and lists add up', () => {
    const { values, positionals } = parseCommandLine(COMMAND, [
      '--out',
      'o',
      '--variant',
      'a,b',
      '--variant',
      'c',
      '--share=2.5',
      '--verbose',
      'f1',
      'f2',
    ]);
    assert.deepEqual(values, {
      out: 'o',
      rounds: 3,
      share: 2.5,
      variant: ['a', 'b', 'c'],
      mode: 'fast',
      history: undefined,
      verbose: true,
    });
    assert.deepEqual(positionals, ['f1', 'f2']);
  });

  test('the last of a flag given twice wins, and --no-X turns a negatable option off', () => {
    const { values } = parseCommandLine(COMMAND, ['--out', 'a', '--out', 'b', '--no-history', 'f']);
    assert.equal(values.out, 'b');
    assert.equal(values.history, false);
  });

  test('an unknown flag is named, always with the same code', () => {
    assert.deepEqual(problemsOf(['--out', 'o', '--outt', 'f']), ['unknown option --outt']);
    assert.deepEqual(problemsOf(['--out', 'o', '-x', 'f']), ['unknown option -x']);
  });

  test('a missing value names the flag and what it takes', () => {
    assert.deepEqual(problemsOf(['f', '--out']), ['--out needs a value: --out DIR']);
  });

  test('a bad number or choice names the flag, the rule and the value', () => {
    assert.deepEqual(problemsOf(['--out', 'o', '--rounds', '2.5', '--share', 'lots', '--mode', 'medium', 'f']), [
      '--rounds must be a whole number of at least 1, not "2.5"',
      '--share must be a number > 0, not "lots"',
      '--mode must be one of fast, slow, not "medium"',
    ]);
  });

  test('every problem is reported at once: required flags, positionals, a flag with a value it does not take', () => {
    assert.deepEqual(problemsOf(['--verbose=yes', '--nope']), [
      '--verbose takes no value, got "yes"',
      'unknown option --nope',
      '--out is required',
      'name at least one file',
    ]);
    assert.deepEqual(problemsOf(['--out', 'o', 'f'], { ...COMMAND, positionals: undefined }), [
      'unexpected argument "f": every value follows its option',
    ]);
  });

  test("a command's own check adds its problems", () => {
    const command = { ...COMMAND, check: (values) => (values.mode === 'slow' ? ['slow needs --share'] : []) };
    assert.deepEqual(problemsOf(['--out', 'o', '--mode', 'slow', 'f'], command), ['slow needs --share']);
  });

  test('the words after -- of a pass-through command are kept as they are, and an unknown flag gets its hint', () => {
    const command = { ...COMMAND, passThrough: 'options of another command', unknownHint: 'they go after --' };
    assert.deepEqual(parseCommandLine(command, ['--out', 'o', 'f', '--', '--duration', '1']).rest, ['--duration', '1']);
    assert.deepEqual(problemsOf(['--out', 'o', 'f', '--duration'], command), [
      'unknown option --duration (they go after --)',
    ]);
  });

  test('--help wins over any problem', () => {
    assert.deepEqual(parseCommandLine(COMMAND, ['--nope', '-h']), { help: true });
  });

  test('the help lists every option with its value, rule and default', () => {
    const help = helpText(COMMAND);
    assert.match(help, /^usage: node demo\.mjs --out DIR \[options\] FILE\.\.\.\n/);
    for (const line of [
      /--out DIR +where it goes \(required\)/,
      /--rounds N +how many \(a whole number of at least 1; default 3\)/,
      /--mode fast\|slow +how \(default fast\)/,
      /--history, --no-history FILE +where it is kept/,
      /-h, --help +print this help and exit/,
    ]) {
      assert.match(help, line);
    }
  });
});

describe('the error catalogue', () => {
  const all = [errors, githubErrors, historyErrors].flatMap((group) => Object.values(group));
  // Arguments enough for any entry: strings, and arrays where one is joined or mapped.
  const sample = (define) => define(...Array.from({ length: define.length || 4 }, () => []), []);

  test('every code is defined once', () => {
    const codes = Object.values({ ...errors, ...githubErrors, ...historyErrors })
      .map((define) => {
        try {
          return sample(define).code;
        } catch {
          return null;
        }
      })
      .filter(Boolean);
    assert.equal(new Set(codes).size, codes.length, codes.join(' '));
    assert.ok(codes.every((code) => /^PG_[A-Z_]+$/.test(code)));
  });

  test('exit codes: 2 bad input unless the entry says the checked thing failed', () => {
    assert.equal(errors.badArgs([], '').exitCode, EXIT.badInput);
    assert.equal(githubErrors.hostileArtifact('x').exitCode, EXIT.failed);
    assert.equal(exitCodeOf(Object.assign(new Error('fetch failed'))), EXIT.failed);
    assert.equal(exitCodeOf(new TypeError('a bug')), undefined);
    assert.ok(all.length > 20);
  });
});

// Every entry point: --help, an unknown flag and a missing value, through the real script.
const SCRIPTS = readdirSync(join(PROJECT_ROOT, 'scripts'))
  .filter((name) => name.endsWith('.mjs'))
  .sort();
// Asynchronous, so that the scripts are checked side by side: each only parses its command line.
const execFileAsync = promisify(execFile);
const run = (script, args) =>
  execFileAsync(process.execPath, [join(PROJECT_ROOT, 'scripts', script), ...args], {
    encoding: 'utf8',
    timeout: 30000,
    cwd: PROJECT_ROOT,
  }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    ({ code, stdout, stderr }) => ({ status: code, stdout, stderr }),
  );

describe('every command in scripts/', { concurrency: 4 }, () => {
  for (const script of SCRIPTS) {
    test(script, async () => {
      const help = await run(script, ['--help']);
      assert.equal(help.status, 0, help.stderr);
      assert.match(help.stdout, /^usage: \S/);
      assert.match(help.stdout, /-h, --help +print this help and exit/);
      assert.equal(help.stderr, '');

      const unknown = await run(script, ['--no-such-flag']);
      assert.equal(unknown.status, 2, unknown.stderr);
      assert.match(unknown.stderr, /^perfgate: invalid command line:\n/);
      assert.match(unknown.stderr, /^perfgate: {3}- unknown option --no-such-flag\b/m);
      assert.match(unknown.stderr, /--help lists every option\n$/);

      // The first option of the help that takes a value, given without one.
      const [, flag] = help.stdout.match(/^ {2}(?:-\w, )?(--[\w-]+)(?:, --no-[\w-]+)? [A-Z(a-z|]/m) ?? [];
      if (!flag) return;
      const missing = await run(script, [flag]);
      assert.equal(missing.status, 2, missing.stderr);
      assert.match(missing.stderr, new RegExp(`${flag} needs a value: ${flag} \\S+`));
    });
  }
});
