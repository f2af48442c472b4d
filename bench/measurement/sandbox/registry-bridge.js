// Inside a sandboxed install's network namespace (./install.js), which has loopback only: a TCP
// port on 127.0.0.1 that leads to the harness's registry proxy (./registry-proxy.js) through its
// unix socket, and the install, started with that port as every proxy setting npm, git and
// common downloaders read. It exits as the install does. The proxy outside decides what is
// reachable; this only carries bytes. Run as `node registry-bridge.js <socket> <command...>`;
// Node's built-ins only.
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

const [socketPath, ...command] = process.argv.slice(2);

const bridge = createServer((client) => {
  const onward = connect(socketPath);
  for (const [from, to] of [
    [client, onward],
    [onward, client],
  ]) {
    from.on('error', () => to.destroy());
    from.pipe(to);
  }
});

bridge.listen(0, '127.0.0.1', () => {
  const proxy = `http://127.0.0.1:${bridge.address().port}`;
  const env = { ...process.env };
  for (const name of [
    'npm_config_proxy',
    'npm_config_https_proxy',
    'http_proxy',
    'https_proxy',
    'HTTP_PROXY',
    'HTTPS_PROXY',
  ])
    env[name] = proxy;
  for (const name of ['npm_config_noproxy', 'no_proxy', 'NO_PROXY']) env[name] = '';
  const install = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
  install.on('error', (error) => {
    console.error(`${command[0]}: ${error.message}`);
    process.exit(127);
  });
  install.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)));
});
