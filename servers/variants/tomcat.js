// A servlet on embedded Tomcat (servers/tomcat/), built by `npm run setup` with Maven. Serves
// the db scenario through a JDBC pool; PERFGATE_TOMCAT_MAX_THREADS and
// PERFGATE_TOMCAT_MAX_CONNECTIONS in the harness's environment raise Tomcat's limits.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIO_NAMES } from '../contract/scenarios.js';

const JAR = fileURLToPath(new URL('../../.perfgate/build/tomcat/perfgate-tomcat.jar', import.meta.url));

export const scenarios = SCENARIO_NAMES;

export async function unavailable() {
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).status !== 0)
    return 'java missing (Debian package openjdk-17-jre-headless)';
  return existsSync(JAR)
    ? null
    : 'not built (npm run setup builds it in a checkout of perfgate, with Maven; the npm package has no build)';
}

// The static scenario's directory, from the servers/ of the checkout being run.
export const command = ({ launchScript }) => ['java', '-jar', JAR, join(dirname(launchScript), 'static')];

export const proxyClients = ['http'];
export const proxyClientNote = "it forwards with Java's HttpClient, not a Node one";
