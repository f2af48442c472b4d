// How the user started perfgate, so that help and messages name the commands they can type:
// `perfgate <command>` for an installed perfgate (bin/perfgate.js says so before any command
// runs, and any script of an installed perfgate), `npm run <command>` in perfgate's own
// checkout. Node built-ins only: bench/core/errors.js reads it.
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// perfgate installed as a package, rather than run from a checkout of its own repository.
export const INSTALLED = fileURLToPath(new URL('../..', import.meta.url))
  .split(sep)
  .includes('node_modules');

let commandLineName = INSTALLED ? 'perfgate' : undefined;

export const invokedAs = (name) => {
  commandLineName = name;
};

// The command line of another command, e.g. `perfgate site` or `npm run site`.
export const commandLine = (command) => (commandLineName ? `${commandLineName} ${command}` : `npm run ${command}`);

// How a missing Debian package is installed: by hand for a user, by perfgate's setup in its checkout.
export const installHint = (debianPackage) =>
  commandLineName ? `apt-get install ${debianPackage}` : 'npm run setup installs it';

export const runAsCommand = () => Boolean(commandLineName);
