// Entry point of a user's server given as a module (perfgate.config's `"module"`): serves the
// request handler it exports on node:http, under the same contract as the built-in variants
// (port, ready file, clean stop; servers/contract/contract.js).
//   PERFGATE_HANDLER_MODULE  the module's absolute path
//   PERFGATE_HANDLER_EXPORT  the export holding the handler (default: "default")
import { pathToFileURL } from 'node:url';
import { listenHandler, runServer } from './contract/contract.js';

const file = process.env.PERFGATE_HANDLER_MODULE;
const name = process.env.PERFGATE_HANDLER_EXPORT || 'default';

async function handler() {
  const module = await import(pathToFileURL(file));
  const exported = module[name];
  if (typeof exported !== 'function') {
    const found = Object.keys(module).join(', ') || 'nothing';
    throw new Error(
      `${file} has no function export "${name}" (it exports ${found}): export a request handler (req, res), e.g. an Express app, and name it in "export"`,
    );
  }
  return exported;
}

await runServer(async (_ctx, { port, host }) => listenHandler(await handler(), port, host));
