// The npm registry through npm itself, so that a user's registry, proxy, certificates and
// credentials (.npmrc, npm_config_*) apply as they do to any install: `npm view` for the
// published versions, `npm pack` for a tarball (checked against the registry's integrity).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const NPM_TIMEOUT_MS = 10 * 60 * 1000;

// npm's own error code ("E404", "ECONNREFUSED", ...) and its first error line.
function npmFailure(error) {
  const text = `${error.stderr ?? ''}`;
  const code = /npm (?:error|ERR!) code (\S+)/.exec(text)?.[1] ?? error.code ?? 'ENPM';
  const line =
    text
      .split('\n')
      .filter((each) => /^npm (?:error|ERR!)/.test(each))
      .map((each) => each.replace(/^npm (?:error|ERR!)\s*/, '').trim())
      .find((each) => each && !/^(code|errno|syscall) /.test(each)) ?? error.message.split('\n')[0];
  return { code: String(code), detail: line };
}

async function npm(args) {
  try {
    const { stdout } = await run('npm', [...args, '--json', '--no-update-notifier'], {
      timeout: NPM_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { ok: true, value: JSON.parse(stdout || 'null') };
  } catch (error) {
    return { ok: false, ...npmFailure(error) };
  }
}

/** The published versions of `pkg`: {ok, versions} or {ok: false, code, detail} (code E404: no such package). */
export async function publishedVersions(pkg) {
  const answer = await npm(['view', pkg, 'versions']);
  if (!answer.ok) return answer;
  return { ok: true, versions: [answer.value].flat().filter((version) => typeof version === 'string') };
}

/** Downloads pkg@version's tarball into `dir`: {ok, file} or {ok: false, code, detail}. */
export async function downloadTarball(pkg, version, dir) {
  const answer = await npm(['pack', `${pkg}@${version}`, '--pack-destination', dir, '--ignore-scripts']);
  if (!answer.ok) return answer;
  return { ok: true, file: `${dir}/${answer.value[0].filename}` };
}
