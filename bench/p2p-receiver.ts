// A P2PNetwork that only receives, in its own process (bench/p2p.bench.ts forks it for the receive
// capacity case): one node on its own core, as in a real network, without the per-peer limit. It subscribes to the tx topic as
// a bulk topic with a handler that reads the message's index, and posts to the parent:
//   { enr } once started; { received, shed, busyMs } every 100 ms (busyMs: this thread's event loop
//   time spent working, from performance.eventLoopUtilization); { stopped } after 'stop'. Messages
//   go over the fork's IPC channel.
import '../src/p2p/polyfill.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import pino from 'pino';
import { P2PNetwork } from '../src/p2p/network.js';
import { TOPICS } from '../src/validators/messages.js';

const port = {
  postMessage: (m: unknown) => process.send!(m),
  on: (event: 'message', f: (m: string) => void) => process.on(event, f),
};
const net = await P2PNetwork.start({
  privateKey: secp256k1.utils.randomSecretKey(),
  listenHost: '127.0.0.1',
  listenPort: 0,
  announceHost: '127.0.0.1',
  bootstrap: [],
  topicPrefix: '/cairn/31337/0xbench',
  logger: pino({ level: 'warn' }),
  // The pipeline's own capacity: no per-peer limit (the only sender would hit it first).
  queueLimits: { ratePerPeer: 1e9, burstPerPeer: 1e9 },
});
let received = 0;
net.subscribe(
  TOPICS.tx,
  (data) => {
    // What a cheap handler does: read the message (its index), accept it.
    if (Buffer.from(data.buffer, data.byteOffset, data.byteLength).readUInt32BE(1) >= 0) received++;
    return 'accept';
  },
  'bulk',
);
const report = () => {
  const q = net.validationCounts;
  const busyMs = performance.eventLoopUtilization().active;
  port.postMessage({ received, shed: q.rateLimited + q.full, busyMs });
};
const timer = setInterval(report, 100);
port.on('message', async (m: string) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  report();
  await net.stop();
  port.postMessage({ stopped: true });
  process.disconnect();
});
port.postMessage({ enr: net.enr });
