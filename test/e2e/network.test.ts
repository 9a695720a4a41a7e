// A network of three nodes on loopback sharing one L1 (node A's embedded anvil, realtime clock):
// the committee spans the nodes' validators plus a remote validator no node runs. Txs sent to one
// node reach the others' pools; checkpoints carry attestations from all three nodes; the nodes
// follow the same chain; the stats show the remote validator never attesting and an inactivity
// offense appears for it in its round, and the proposers vote for a slash payload carrying it on
// L1; a stopped node catches up when restarted; a node started
// later syncs the history from L1, showing its progress.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildTx, devAccounts, NodeClient, prepareTx, randomFr, toWire } from '../../src/client/index.js';
import { type CairnProcess, followerFlags, startCairn } from '../helpers/process.js';
import { call, result } from '../helpers/rpc.js';
import { until } from '../helpers/until.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-network-'));
const SLOT = 6;
const EPOCH = 4;
const ROUND = 8;

/** Writes a keystore of `count` new validators; returns its path and their addresses. */
function keystore(name: string, count: number) {
  const keys = Array.from({ length: count }, () => generatePrivateKey());
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ validators: keys.map((attester) => ({ attester })) }), {
    mode: 0o600,
  });
  return { path, addresses: keys.map((k) => privateKeyToAccount(k).address.toLowerCase()) };
}

const a = keystore('a', 4);
const b = keystore('b', 1);
const c = keystore('c', 1);
/** A validator in the set that no node runs: it never proposes or attests. */
const remote = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
const nodeArgs = [
  '--clock',
  'realtime',
  '--l1-block-time',
  '1',
  '--archiver-polling-interval-m-s',
  '200',
  '--attestation-timeout-ms',
  '3000',
  '--slashing-round-size',
  String(ROUND),
];
const p2pArgs = ['--p2p', '--p2p-port', '0', '--p2p-listen-host', '127.0.0.1'];
const [payer] = devAccounts(1);

describe('a three-node network on loopback', () => {
  let nodeA: CairnProcess;
  let nodeB: CairnProcess;
  let nodeC: CairnProcess;
  let bArgs: string[];
  const later: CairnProcess[] = [];
  const pub = (n: CairnProcess, m: string, p?: unknown) => result(n.publicUrl, m, p) as Promise<any>;
  const admin = (n: CairnProcess, m: string, p?: unknown) => result(n.adminUrl, m, p) as Promise<any>;
  const checkpointed = async (n: CairnProcess) =>
    (await pub(n, 'svc_getChainTips')).checkpointed.block.number as number;
  const connected = async (n: CairnProcess) =>
    ((await pub(n, 'svc_getPeers')) as { status: string }[]).filter((p) => p.status === 'connected').length;

  before(async () => {
    nodeA = await startCairn(
      [
        ...nodeArgs,
        ...p2pArgs,
        '--keystore-path',
        a.path,
        '--slot-duration',
        String(SLOT),
        '--epoch-duration',
        String(EPOCH),
        '--target-committee-size',
        '7',
        '--remote-validators',
        [...b.addresses, ...c.addresses, remote].join(','),
      ],
      {},
      [],
      60_000,
    );
    const enr = (await pub(nodeA, 'svc_getEncodedEnr')) as string;
    const follow = await followerFlags(nodeA);
    bArgs = [
      ...nodeArgs,
      ...p2pArgs,
      ...follow,
      '--keystore-path',
      b.path,
      '--p2p-bootstrap-nodes',
      enr,
      '--ephemeral',
      'false',
      '--data-dir',
      join(dir, 'data-b'),
    ];
    nodeB = await startCairn(bArgs, {}, [], 60_000);
    // Discovery is by bootstrap list only: C names both A and B, so the three form a full mesh.
    const enrB = (await pub(nodeB, 'svc_getEncodedEnr')) as string;
    nodeC = await startCairn(
      [
        ...nodeArgs,
        ...p2pArgs,
        ...follow,
        '--keystore-path',
        c.path,
        '--p2p-bootstrap-nodes',
        `${enr},${enrB}`,
      ],
      {},
      [],
      60_000,
    );
  });
  after(async () => {
    await Promise.all([nodeA, nodeB, nodeC, ...later].map((n) => n?.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('the nodes find each other through node A’s record', async () => {
    const enr = (await pub(nodeA, 'svc_getEncodedEnr')) as string;
    assert.match(enr, /^enr:[A-Za-z0-9_-]+$/);
    await until('A to see two peers', async () => ((await connected(nodeA)) === 2 ? true : undefined));
    await until('B and C to see two peers each', async () =>
      (await connected(nodeB)) === 2 && (await connected(nodeC)) === 2 ? true : undefined,
    );
    const peers = (await pub(nodeB, 'svc_getPeers', [true])) as { id: string; status: string }[];
    assert.ok(
      peers.every((p) => typeof p.id === 'string' && p.id.length > 0),
      `peers without ids: ${JSON.stringify(peers)}`,
    );
  });

  test('a tx sent to C reaches the pools of A and B', async () => {
    const clientC = new NodeClient(nodeC.publicUrl);
    const tx = await prepareTx(clientC, { feePayer: payer!.address, protocolNullifier: randomFr() });
    const seen = new Set<string>();
    assert.equal(await pub(nodeC, 'svc_sendTx', [tx.wire]), null);
    await until('the tx to be pending on A and B', async () => {
      for (const [name, n] of [
        ['A', nodeA],
        ['B', nodeB],
      ] as const) {
        const status = (await pub(n, 'svc_getTxReceipt', [tx.hash])).status;
        if (status === 'pending') seen.add(name);
      }
      return seen.size === 2 ? true : undefined;
    });
    await until(
      'the tx to be checkpointed',
      async () =>
        (await pub(nodeA, 'svc_getTxReceipt', [tx.hash])).status === 'checkpointed' ? true : undefined,
      90_000,
    );
  });

  test('checkpoints carry attestations from validators of all three nodes', async () => {
    const signersOf = async (n: number) => {
      const cp = await pub(nodeA, 'svc_getCheckpoint', [n, { includeAttestations: true }]);
      return new Set(
        (cp.attestations as { address: string; signature: string }[])
          .filter((x) => x.signature !== '0x')
          .map((x) => x.address),
      );
    };
    const n = await until(
      'a checkpoint signed by A, B and C',
      async () => {
        const latest = (await pub(nodeA, 'svc_getCheckpointNumber')) as number;
        for (let i = latest; i >= 1; i--) {
          const signers = await signersOf(i);
          if ([a.addresses, b.addresses, c.addresses].every((set) => set.some((x) => signers.has(x))))
            return i;
        }
        return undefined;
      },
      90_000,
    );
    const signers = await signersOf(n);
    assert.ok(!signers.has(remote), 'the remote validator never signs');
    assert.ok(signers.size >= 5, `quorum of 7 is 5, got ${signers.size}`);
  });

  test('every node follows the same chain', async () => {
    const tip = await checkpointed(nodeA);
    assert.ok(tip > 0, 'A has a checkpointed block');
    await until('B and C to reach A’s checkpointed tip', async () =>
      (await checkpointed(nodeB)) >= tip && (await checkpointed(nodeC)) >= tip ? true : undefined,
    );
    const hashes = await Promise.all(
      [nodeA, nodeB, nodeC].map(async (n) => (await pub(n, 'svc_getBlock', [tip])).hash),
    );
    assert.equal(new Set(hashes).size, 1, `block ${tip}: ${hashes.join(' ')}`);
  });

  test('a burst of 300 txs (~30 MB) from one peer costs no slot its quorum and loses no attestation', async () => {
    const metric = async (n: CairnProcess, outcome: string) => {
      const text = await (await fetch(`${n.adminUrl}/metrics`)).text();
      const m = new RegExp(`^cairn_sequencer_outcomes_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(
        text,
      );
      return m ? Number(m[1]) : 0;
    };
    const nodes = [nodeA, nodeB, nodeC];
    const noQuorumBefore = await Promise.all(nodes.map((n) => metric(n, 'no-quorum')));
    // 300 valid txs, built here with the chain's parameters fetched once: ~100 KB each with their
    // proofs (the reference's model), ~30 MB to gossip, and each node hashes every one (~430
    // Poseidon2 permutations, 5-15 ms): seconds of work per node, which three nodes and L1 on two
    // cores share with the slots' consensus. Building yields now and then: each is hashed here,
    // and a loop held for long lets the HTTP client's idle connections go stale.
    const clientC = new NodeClient(nodeC.publicUrl);
    const first = await prepareTx(clientC, { feePayer: payer!.address, protocolNullifier: randomFr() });
    const { constants, expirationTimestamp } = first.tx.data;
    const { txContext } = constants;
    const wires = [first.wire];
    // Ten fee payers: one account's balance covers only so many pending txs.
    const payers = devAccounts(10);
    while (wires.length < 300) {
      if (wires.length % 50 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const { tx } = buildTx({
        feePayer: payers[wires.length % payers.length]!.address,
        protocolNullifier: randomFr(),
        anchorBlockHeader: constants.anchorBlockHeader,
        chainId: Number(txContext.chainId),
        version: Number(txContext.version),
        expirationTimestamp,
        maxFeesPerGas: txContext.gasSettings.maxFeesPerGas,
      });
      wires.push(toWire(tx));
    }
    const fromCheckpoint = ((await pub(nodeA, 'svc_getCheckpointNumber')) as number) + 1;
    // Sent to C as fast as it takes them, 50 to a batch, 4 batches at a time: C gossips each.
    const batches: unknown[][] = [];
    for (let i = 0; i < wires.length; i += 50)
      batches.push(
        wires
          .slice(i, i + 50)
          .map((w, j) => ({ jsonrpc: '2.0', id: i + j, method: 'svc_sendTx', params: [w] })),
      );
    let accepted = 0;
    const refusals = new Map<string, number>();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) {
          const res = await fetch(nodeC.publicUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(batch),
          });
          for (const r of (await res.json()) as { error?: { message: string } }[]) {
            if (r.error === undefined) accepted++;
            else refusals.set(r.error.message, (refusals.get(r.error.message) ?? 0) + 1);
          }
        }
      }),
    );
    assert.ok(accepted >= 240, `C took ${accepted} of 300 txs: ${JSON.stringify([...refusals])}`);
    // Four checkpoints after the burst: the slots while the others worked through it.
    const toCheckpoint = fromCheckpoint + 4;
    await until(
      `checkpoint ${toCheckpoint}`,
      async () => ((await pub(nodeA, 'svc_getCheckpointNumber')) >= toCheckpoint ? true : undefined),
      180_000,
    );
    const noQuorumAfter = await Promise.all(nodes.map((n) => metric(n, 'no-quorum')));
    // On a failure, each node's log lines about the slots of the burst say where time went.
    const slotLines = () =>
      nodes
        .map((n, i) =>
          n
            .output()
            .split('\n')
            .filter((l) => /attest|checkpoint \d+ \(slot|proposed by|proposal|chain pass/.test(l))
            .slice(-25)
            .map((l) => `${'ABC'[i]}: ${l}`)
            .join('\n'),
        )
        .join('\n');
    assert.deepEqual(noQuorumAfter, noQuorumBefore, `no proposal went without its quorum:\n${slotLines()}`);
    // Every checkpoint of the burst carries a quorum, and none of the attestations made was lost on
    // the way: every node's pool holds the slot's proposal and every attestation any node's pool
    // has for it. (A node that falls behind under the burst may not attest a slot at all before
    // its checkpoint is on L1; that is slowness, not loss, and the quorum checks above cover it.)
    const ours = new Set([...a.addresses, ...b.addresses, ...c.addresses]);
    for (let n = fromCheckpoint; n <= toCheckpoint; n++) {
      const cp = await pub(nodeA, 'svc_getCheckpoint', [n, { includeAttestations: true }]);
      const signed = (cp.attestations as { signature: string }[]).filter((x) => x.signature !== '0x');
      assert.ok(signed.length >= 5, `checkpoint ${n}: ${signed.length} attestations, quorum 5`);
      const slot = cp.header.slotNumber as number;
      for (const node of nodes) {
        const proposals = await pub(node, 'svc_getProposalsForSlot', [slot]);
        assert.ok(proposals.checkpointProposals.length >= 1, `slot ${slot}: no proposal in a pool`);
      }
      // One attestation per validator and slot: distinct signatures are distinct attesters. A late
      // one may still be on its way: the pools are compared until they agree.
      const pools = async () =>
        Promise.all(
          nodes.map(
            async (node) =>
              new Set(
                (
                  (await pub(node, 'svc_getCheckpointAttestationsForSlot', [slot])) as { signature: string }[]
                ).map((x) => x.signature),
              ),
          ),
        );
      let seen: Set<string>[] = [];
      const agreed = await until(
        `the pools agree on slot ${slot}`,
        async () => {
          seen = await pools();
          const all = new Set(seen.flatMap((p) => [...p]));
          return seen.every((p) => p.size === all.size) ? all : undefined;
        },
        10_000,
      ).catch(() => undefined);
      assert.ok(
        agreed !== undefined,
        `slot ${slot}: pools of ${seen.map((p) => p.size).join(', ')} attestations:\n${slotLines()}`,
      );
      assert.ok(agreed.size >= 5 && agreed.size <= ours.size, `slot ${slot}: ${agreed.size} attestations`);
    }
  });

  test('the P2P queries answer from the attestation pool', async () => {
    const cp = await pub(nodeB, 'svc_getCheckpoint', ['checkpointed']);
    const slot = cp.header.slotNumber as number;
    const proposals = await pub(nodeB, 'svc_getProposalsForSlot', [slot]);
    const attestations = await pub(nodeB, 'svc_getCheckpointAttestationsForSlot', [slot]);
    // B may be the proposer of that slot itself: then the pool holds its own proposal.
    assert.ok(proposals.checkpointProposals.length >= 1, 'a checkpoint proposal in the pool');
    assert.equal(
      proposals.checkpointProposals[0].archive,
      cp.archive?.root ?? proposals.checkpointProposals[0].archive,
    );
    assert.ok(proposals.blockProposals.length >= 1, 'a block proposal in the pool');
    assert.ok(attestations.length >= 1, 'attestations in the pool');
    for (const x of attestations) {
      assert.match(x.signature, /^0x[0-9a-f]{130}$/);
      assert.equal(x.payload.header.slotNumber, slot);
    }
  });

  test('the stats show the remote validator never attesting, and the others attesting', async () => {
    const sent = (s: any, address: string) =>
      (s.stats[address]?.history ?? []).some((h: { status: string }) => h.status === 'attestation-sent');
    // A slot is recorded once it has ended and L1 is synced past it, so B's attestations of the
    // checkpoints seen above may take a slot or two to show.
    const stats = await until('stats with the remote validator missing and B attesting', async () => {
      const s = await pub(nodeA, 'svc_getValidatorsStats');
      return s.stats[remote]?.missedAttestations.count > 0 && sent(s, b.addresses[0]!) ? s : undefined;
    });
    const x = stats.stats[remote];
    assert.ok(!sent(stats, remote), 'the remote validator never attests');
    assert.equal(x.missedAttestations.count, x.missedAttestations.total);
    assert.equal(x.missedAttestations.rate, 1);
    assert.equal(x.lastAttestation, undefined);
    // B started later: it has the remote validator once it has recorded a slot of its own.
    const one = await until('B recording the remote validator', async () => {
      const v = await pub(nodeB, 'node_getValidatorStats', [remote]);
      return v ?? undefined;
    });
    assert.equal(one.validator.address, remote);
    assert.ok(typeof one.slotWindow === 'number' && one.slotWindow > 0, `slotWindow ${one.slotWindow}`);
  });

  test('an inactivity offense appears for the remote validator in its round', async () => {
    const offense = await until(
      'an inactivity offense',
      async () => {
        const all = (await admin(nodeA, 'svcAdmin_getSlashOffenses', ['all'])) as any[];
        return all.find((o) => o.validator === remote && o.offenseType === 3);
      },
      120_000,
    );
    const round = Math.floor((Number(offense.epochOrSlot) * EPOCH) / ROUND);
    const inRound = (await admin(nodeA, 'nodeAdmin_getSlashOffenses', [String(round)])) as any[];
    assert.ok(
      inRound.some((o) => o.validator === remote && o.offenseType === 3),
      `round ${round}: ${JSON.stringify(inRound)}`,
    );
    const otherRound = (await admin(nodeA, 'svcAdmin_getSlashOffenses', [round + 1000])) as any[];
    assert.equal(otherRound.length, 0);
    assert.ok(BigInt(offense.amount) > 0n, `amount ${offense.amount}`);
    const bad = await call(nodeA.adminUrl, 'svcAdmin_getSlashOffenses', ['soon']);
    assert.equal(bad.error?.code, -32602);
  });

  test('proposers vote on L1 for a slash payload carrying the offense', async () => {
    // An offense is voted on from the round after its own; the slots' proposers create a payload
    // from their offenses and vote for it in the Slasher.
    const payload = await until(
      'a slash payload for the remote validator',
      async () => {
        const payloads = (await admin(nodeA, 'nodeAdmin_getSlashPayloads')) as any[];
        return payloads.find((p) =>
          p.slashes.some(
            (s: any) => s.validator === remote && s.offenses.some((o: any) => o.offenseType === 3),
          ),
        );
      },
      150_000,
    );
    assert.ok(BigInt(payload.votes) >= 1n, `votes ${payload.votes}`);
    assert.match(payload.address, /^0x[0-9a-f]{40}$/);
    assert.ok(BigInt(payload.timestamp) > 0n, `timestamp ${payload.timestamp}`);
    const slash = payload.slashes.find((s: any) => s.validator === remote);
    const penalties = slash.offenses.length;
    assert.equal(BigInt(slash.amount), BigInt(penalties) * 10n ** 18n, 'the default penalty per offense');
    // Node B reads the same payload from the same L1 (unless the round ended between the calls).
    const onB = (await admin(nodeB, 'nodeAdmin_getSlashPayloads')) as any[];
    const againOnA = (await admin(nodeA, 'nodeAdmin_getSlashPayloads')) as any[];
    if (againOnA.some((p) => p.address === payload.address)) {
      const same = onB.find((p) => p.address === payload.address);
      assert.ok(same !== undefined, `B lists ${payload.address}: ${JSON.stringify(onB)}`);
      assert.deepEqual(same.slashes, payload.slashes);
      assert.equal(same.round, payload.round);
    }
    // The current set has no such method; the legacy admin set alone serves it.
    const unknown = await call(nodeA.adminUrl, 'svcAdmin_getSlashPayloads', []);
    assert.equal(unknown.error?.code, -32601);
  });

  test('a stopped node catches up when restarted', async () => {
    await nodeB.stop();
    const before = await checkpointed(nodeA);
    await until(
      'the chain to move on without B',
      async () => ((await checkpointed(nodeA)) > before + 1 ? true : undefined),
      90_000,
    );
    nodeB = await startCairn(bArgs, {}, [], 60_000);
    const target = await checkpointed(nodeA);
    await until('B to catch up', async () => ((await checkpointed(nodeB)) >= target ? true : undefined));
    const [ha, hb] = await Promise.all(
      [nodeA, nodeB].map(async (n) => (await pub(n, 'svc_getBlock', [target])).hash),
    );
    assert.equal(hb, ha);
    await until('B to reconnect', async () => ((await connected(nodeB)) >= 1 ? true : undefined));
  });

  test('a node started later syncs the history from L1 and shows its progress', async () => {
    const target = await checkpointed(nodeA);
    const late = await startCairn(
      [...nodeArgs, ...(await followerFlags(nodeA)), '--sequencer', 'false', '--archiver-batch-size', '5'],
      {},
      [],
      60_000,
    );
    later.push(late);
    await until('the late node to reach A’s tip', async () =>
      (await checkpointed(late)) >= target ? true : undefined,
    );
    assert.match(late.output(), /syncing from L1: block \d+ of \d+ \([0-9.]+%\), checkpoint \d+ of \d+/);
    await until('the late node to report it has caught up', async () =>
      /synced with L1 at block \d+/.test(late.output()) ? true : undefined,
    );
    assert.equal(
      (await pub(late, 'svc_getBlock', [target])).hash,
      (await pub(nodeA, 'svc_getBlock', [target])).hash,
    );
    const peers = await call(late.publicUrl, 'svc_getPeers');
    assert.equal(peers.error?.code, -32002);
    assert.equal(await pub(late, 'svc_getEncodedEnr'), null);
  });
});
