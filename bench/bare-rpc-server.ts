// The yardstick for bench/rpc.bench.ts: the least a JSON-RPC server over node:http can do for one
// request. It reads the POST body, parses it as JSON and answers with the request's id and a
// constant result, with a JSON content type. Run as its own process (as the node is), it writes
// `{"url": ...}` as one line on stdout once it listens on a free loopback port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const RESULT = 42;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let id: unknown = null;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
      id = body.id ?? null;
    } catch {
      res.writeHead(400).end();
      return;
    }
    const text = JSON.stringify({ jsonrpc: '2.0', id, result: RESULT });
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
