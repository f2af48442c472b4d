// The registry stand-in (fake-registry.js) in a process of its own, for tests whose code runs npm
// synchronously (spawnSync would block a registry served by the test's own event loop).
// argv[2]: a JSON file of name -> version -> { tarball: base64, dependencies }; prints the URL.
import { readFileSync } from 'node:fs';
import { startFakeRegistry } from './fake-registry.js';

const given = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const packages = Object.fromEntries(
  Object.entries(given).map(([name, versions]) => [
    name,
    Object.fromEntries(
      Object.entries(versions).map(([version, each]) => [
        version,
        { ...each, tarball: Buffer.from(each.tarball, 'base64') },
      ]),
    ),
  ]),
);
const registry = await startFakeRegistry(packages);
console.log(registry.url);
process.on('SIGTERM', () => registry.close().then(() => process.exit(0)));
