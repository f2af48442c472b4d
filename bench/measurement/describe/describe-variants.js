// Runs the describe step (servers/describe.js) for the built-in variants of one servers/
// directory and returns what it said, validated (./schema.js). The step is a child process
// launched like a server of that side (bench/measurement/process/server.js: its runtime, its sandbox), so a
// side's variant modules are imported there, never into the harness.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { errors } from '../../core/errors.js';
import { sideCommand } from '../process/server.js';
import { recordMisbehaviour } from '../sandbox/conduct.js';
import { sandboxView } from '../sandbox/bubblewrap.js';
import { limitServer } from '../sandbox/server-limits.js';
import { closeView } from '../sandbox/view.js';
import { validateDescription } from './schema.js';

const DESCRIBE_SCRIPT = fileURLToPath(new URL('../../../servers/describe.js', import.meta.url));
const TIMEOUT_MS = 60_000; // importing every framework and probing java, bun, uWebSockets.js
const SHOWN = 2000; // characters of a failed step's output in the error

function runChild(argv, { cwd, env, limits }) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    limits?.watch(() => child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-SHOWN);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * @param {string[]} names  built-in variant names, each a file in `serversDir`/variants/
 * @param {{serversDir: string, launch?: object}} where  launch: the side's runtime and sandbox
 * @returns {Promise<object[]>} one description per name, in order (./schema.js)
 */
export async function describeVariants(names, { serversDir, launch = {} }) {
  if (!names.length) return [];
  // In a sandbox, the step gets a network of its own: it has nobody to talk to.
  const own = launch.sandbox ? { ...launch, sandbox: { ...launch.sandbox, network: 'own' } } : launch;
  // Its own file system too: what it writes outside its tree's copy is reported like a server's.
  const view = launch.sandbox ? sandboxView(launch.sandbox) : undefined;
  // And its side's limits: a variant module that forks or allocates without end as it is imported.
  const limits = launch.sandbox ? limitServer(launch.sandbox, view) : null;
  const { argv, env } = sideCommand([process.execPath, DESCRIBE_SCRIPT, serversDir, ...names], own, { view, limits });
  const result = await runChild(argv, { cwd: serversDir, env, limits });
  const limit = limits?.reached();
  limits?.close();
  const wrote = view && closeView(view);
  if (wrote) recordMisbehaviour(launch.sandbox.side, wrote);
  const where = `${serversDir} (${names.join(', ')})`;
  if (result.code !== 0) {
    const how = result.signal ? `signal ${result.signal}` : `code ${result.code}`;
    throw errors.describeFailed(
      where,
      `exited with ${how}: ${limit ?? (result.stderr.trim().slice(-SHOWN) || 'no output')}`,
    );
  }
  let answer;
  try {
    answer = JSON.parse(result.stdout.trim().split('\n').at(-1));
  } catch {
    throw errors.describeFailed(where, 'its last line is not JSON');
  }
  if (!validateDescription(answer))
    throw errors.describeFailed(
      where,
      validateDescription.errors.map((error) => `${error.instancePath || '/'} ${error.message}`).join('; '),
    );
  const said = answer.variants.map((variant) => variant.name);
  if (said.join() !== names.join()) throw errors.describeFailed(where, `it described ${said.join(', ') || 'nothing'}`);
  return answer.variants;
}
