// Runs one step of the harness (a comparison's measurement) in a private network namespace that
// perfgate creates with bubblewrap: inside it there is only a loopback interface, so the
// sandboxed servers, the load engine, the readiness and answer checks, the mock backend and the
// database reach each other over loopback (each side on addresses of its own: ./side-networks.js),
// and nothing started there can reach another machine. The step is harness code (trusted, the whole file system as it is); it takes
// and returns JSON. When it has ended, every process still in that namespace is killed and
// reported, before the caller writes any result.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerfgateError } from '../../core/errors.js';
import { registerCleanup } from '../process/children.js';
import { killAllIn } from './processes.js';

const STEP = fileURLToPath(new URL('./private-network-step.js', import.meta.url));

/** True when this process sees no network but loopback (inside a private namespace). */
export const onlyLoopback = () => Object.keys(networkInterfaces()).every((name) => name === 'lo');

/**
 * @param {URL} module  a harness module; `exportName` is called with `input` and { onProgress }
 * @returns {Promise<{result: any, leftBehind: {pid: number, command: string}[]}>}
 *   leftBehind: processes that were still in the namespace after the step ended (killed)
 */
export async function runInPrivateNetwork(module, exportName, input) {
  const dir = mkdtempSync(join(tmpdir(), 'perfgate-network-'));
  const unregister = registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const [inputFile, outputFile] = [join(dir, 'input.json'), join(dir, 'output.json')];
  writeFileSync(inputFile, JSON.stringify(input));
  const argv = ['--unshare-net', '--dev-bind', '/', '/', '--die-with-parent', '--info-fd', '3', '--'];
  const child = spawn(
    'bwrap',
    [...argv, process.execPath, STEP, fileURLToPath(module), exportName, inputFile, outputFile],
    { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] },
  );
  let info = '';
  child.stdio[3].on('data', (chunk) => {
    info += chunk;
  });
  const stopChild = () => child.kill('SIGTERM');
  process.once('exit', stopChild);
  const [code, signal] = await once(child, 'close');
  process.off('exit', stopChild);
  try {
    const namespace = String(JSON.parse(info || '{}')['net-namespace'] ?? '');
    const leftBehind = namespace ? killAllIn('net', namespace).map(({ pid, command }) => ({ pid, command })) : [];
    let output;
    try {
      output = JSON.parse(readFileSync(outputFile, 'utf8'));
    } catch {
      throw new Error(
        `the measurement in a private network namespace ended (${signal ?? `code ${code}`}) without a result`,
      );
    }
    if (output.error) throw new PerfgateError(output.error.code, output.error.message, output.error.exitCode);
    return { result: output.result, leftBehind };
  } finally {
    unregister();
    rmSync(dir, { recursive: true, force: true });
  }
}
