// A node-cluster worker process: serves the node-http variant on the port the primary shares
// (PORT and HOST are inherited). The primary learns it listens from cluster's 'listening' event.
import { createContext, readOptions } from '../contract/contract.js';
import { start } from '../variants/node-http.js';

const options = readOptions();
await start(createContext(options), { port: options.port, host: options.host });
