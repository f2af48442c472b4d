#!/usr/bin/env node
// `npm run sandbox-overhead`: what running a side in the sandbox costs, as a duet A/A of this
// checkout's servers, unsandboxed (base) against sandboxed (head), in the same private network
// namespace (bench/cli/overhead-command.js). A measurement, not a test.
import { runOverheadCommand } from '../bench/cli/overhead-command.js';

await runOverheadCommand('sandbox');
