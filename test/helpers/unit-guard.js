// Loaded before each test file of `npm run test:unit` (node --import): a unit test runs
// perfgate's code in its own process, so starting any program but git (a perfgate command, a
// server, a load generator, a browser, a linter) fails it, saying what to do. Tests that must
// start one are named <name>.e2e.test.js and run in `npm test` only (test/test-selection.test.js).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';

// git, and the formatter that test/code-style.test.js runs (Biome, through its Node launcher).
const allowed = (program, args) =>
  program === 'git' || program === 'biome' || (Array.isArray(args) && /[/\\]biome$/.test(String(args[0])));

// exec and execSync take a shell command line; the others a program.
const programOf = (method, command) => {
  if (method === 'fork') return 'node';
  return method === 'exec' || method === 'execSync' ? command.split(' ')[0] : command;
};

for (const method of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
  const original = childProcess[method];
  childProcess[method] = function unitGuarded(command, ...rest) {
    const program = basename(programOf(method, String(command).trim()));
    if (!allowed(program, rest[0]))
      throw new Error(
        `a unit test started "${program}" (child_process.${method}): unit tests start no program but git; if this test must, name its file <name>.e2e.test.js so that only npm test runs it`,
      );
    return original.call(this, command, ...rest);
  };
}
syncBuiltinESMExports();
