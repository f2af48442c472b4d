#!/usr/bin/env node
// `npm run agent-overhead`: what the runtime agent (--runtime-metrics) costs a server, as a duet
// A/A of this checkout's servers, without the agent (base) against with it (head)
// (bench/cli/overhead-command.js). A measurement, not a test.
import { runOverheadCommand } from '../bench/cli/overhead-command.js';

await runOverheadCommand('agent');
