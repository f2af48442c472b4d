// The describe step: `node servers/describe.js <servers dir> <variant>...` prints, as JSON on
// stdout, what the harness needs to know about built-in variants (bench/measurement/describe/schema.js).
// It runs as a child process of the side whose variants it imports, on that side's runtime and
// inside its sandbox, so that the harness never loads a side's code: it reads this output as
// data. It imports nothing but Node's own modules and the variant modules it is given, so that
// it describes any checkout's servers/, older ones included.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [serversDir, ...names] = process.argv.slice(2);

// The framework of a reference variant is not a dependency of an installed perfgate (a project
// installs only the frameworks it wants): a variant whose package is missing is described as
// unavailable, with the command that installs it.
async function importVariant(name) {
  try {
    return await import(pathToFileURL(join(serversDir, 'variants', `${name}.js`)));
  } catch (error) {
    const missing = error.code === 'ERR_MODULE_NOT_FOUND' && /Cannot find package '([^']+)'/.exec(error.message)?.[1];
    if (!missing) throw error;
    return { missingPackage: missing };
  }
}

// Only what the module says; the harness fills in the defaults (bench/measurement/variants.js).
async function describe(name) {
  const module = await importVariant(name);
  if (module.missingPackage)
    return {
      name,
      unavailable: `the npm package "${module.missingPackage}" is not installed (npm install --save-dev ${module.missingPackage})`,
    };
  const launchScript = join(serversDir, 'launch.js');
  return {
    name,
    ...(module.packages ? { packages: module.packages } : {}),
    ...(module.scenarios ? { scenarios: module.scenarios } : {}),
    ...(module.role ? { role: module.role } : {}),
    ...(module.proxyClients ? { proxyClients: module.proxyClients } : {}),
    ...(module.proxyClientNote ? { proxyClientNote: module.proxyClientNote } : {}),
    unavailable: module.unavailable ? ((await module.unavailable()) ?? null) : null,
    ...(module.runtime ? { runtime: module.runtime } : {}),
    ...(module.command ? { command: module.command({ launchScript, name }) } : {}),
  };
}

const variants = [];
for (const name of names) variants.push(await describe(name));
// The last line is the answer (a module may print while it loads); exit at once, in case one
// left a timer or a socket open.
process.stdout.write(`\n${JSON.stringify({ format: 'perfgate-describe', version: 1, variants })}\n`, () =>
  process.exit(0),
);
