// Ports on loopback, where every server under test listens (the harness loads loopback only).
import net from 'node:net';

export const LOOPBACK = '127.0.0.1';

// A port nothing listens on now: the kernel's pick for a probe, then released.
export async function freePort(host = LOOPBACK) {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, host, resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

// Resolves to true when nothing listens on the port (we could bind it ourselves).
export function portIsFree(port, host = LOOPBACK) {
  return new Promise((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}
