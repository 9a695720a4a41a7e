// A loopback port nothing listens on: bound, noted, closed (for pages and clients facing a node
// that cannot be reached).
import { createServer } from 'node:net';

export function closedPort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
