// Entry point of a built-in variant's process: `node servers/launch.js <variant>`.
// Kept apart from the variant modules so that the harness can import them for their
// metadata (packages, scenarios) without starting a server.
import { runServer } from './contract/contract.js';

const name = process.argv[2];
const variant = await import(new URL(`./variants/${name}.js`, import.meta.url));
await runServer(variant.start);
