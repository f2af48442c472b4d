// A copy of the project's scripts without node_modules anywhere above it, for the request jobs
// that run with no `npm ci`: a script that imports an npm package fails there at once.
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import { PROJECT_ROOT, tempDir } from './harness.js';

export function bareCheckout() {
  const root = tempDir('perfgate-bare-');
  for (let dir = root; dir !== parse(dir).root; dir = dirname(dir))
    if (existsSync(join(dir, 'node_modules'))) throw new Error(`${dir} has node_modules: not a bare checkout`);
  for (const part of ['bench', 'scripts']) cpSync(join(PROJECT_ROOT, part), join(root, part), { recursive: true });
  // package.json's "type": "module" only; its dependencies are not installed here.
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module' }));
  return root;
}
