// The engines a suite may name, in the order --help and client-check list them: adding an
// engine is adding it here (the seam's shape and what an engine declares: ./seam.js).
import { autocannonEngine } from './autocannon.js';
import { vegetaEngine } from './vegeta.js';
import { wrkEngine } from './wrk.js';

export const ENGINES = [autocannonEngine, wrkEngine, vegetaEngine];
