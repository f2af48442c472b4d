// Flame graph views of kept .cpuprofile files with speedscope (its release build is a static
// page): the viewer is copied beside the profiles once, and each profile gets a small page that
// opens it there. speedscope loads a local profile from a script given by absolute path, so the
// page computes that path where it is opened: the folder can be moved or downloaded as a CI
// artifact and still works. The .cpuprofile files also open in Chrome DevTools as they are.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { writeFileAtomicSync } from '../../core/atomic-file.js';

const require = createRequire(import.meta.url);
const VIEWER_DIR = 'speedscope';

function speedscopeRelease() {
  try {
    return join(dirname(require.resolve('speedscope/package.json')), 'dist', 'release');
  } catch {
    return null;
  }
}

/**
 * Writes <profile>.html (and <profile>.js) beside each profile, and the viewer into `dir`.
 * @returns {string[]|null} the pages, or null when speedscope is not installed
 */
export function writeFlameGraphs(dir, profiles) {
  const release = speedscopeRelease();
  if (!release) return null;
  if (!existsSync(join(dir, VIEWER_DIR))) cpSync(release, join(dir, VIEWER_DIR), { recursive: true });
  return profiles.map((profile) => {
    const name = basename(profile);
    const base64 = readFileSync(profile).toString('base64');
    writeFileAtomicSync(
      `${profile}.js`,
      `speedscope.loadFileFromBase64(${JSON.stringify(name)}, ${JSON.stringify(base64)});\n`,
    );
    const viewer = `${relative(dirname(profile), join(dir, VIEWER_DIR))}/index.html`;
    const page = `${profile}.html`;
    writeFileAtomicSync(
      page,
      `<!doctype html><meta charset="utf-8"><title>${name}</title>
<script>
  const script = decodeURIComponent(new URL(${JSON.stringify(`${name}.js`)}, location.href).pathname);
  location.replace(new URL(${JSON.stringify(viewer)}, new URL('.', location.href)).href + '#view=left-heavy&localProfilePath=' + encodeURIComponent(script));
</script>
<p>Opening ${name} in speedscope… (it needs this page opened from disk, as file://)</p>
`,
    );
    return page;
  });
}
