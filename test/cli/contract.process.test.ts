// `cairn contract`: every subcommand's help works and shows an example, and bad input fails with
// one line on stderr before anything reaches a node (no node runs here: the RPC URL is a closed
// port, which an error only names when the command got as far as asking).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCairn } from '../helpers/process.js';

const SUBCOMMANDS = ['deploy', 'call', 'simulate', 'storage', 'authwit', 'logs', 'selector'];
const CLOSED = { CAIRN_RPC_URL: 'http://127.0.0.1:1' };

describe('cairn contract', () => {
  test('help: the command and every subcommand print their usage and an example', async () => {
    const top = await runCairn(['contract', '--help']);
    assert.equal(top.code, 0, top.stderr);
    for (const sub of SUBCOMMANDS) assert.match(top.stdout, new RegExp(`\\n  ${sub}\\b`), sub);
    assert.match(top.stdout, /Examples:/);
    for (const sub of SUBCOMMANDS) {
      const help = await runCairn(['contract', sub, '--help']);
      assert.equal(help.code, 0, `${sub}: ${help.stderr}`);
      assert.match(help.stdout, new RegExp(`^Usage: cairn contract ${sub}`), sub);
      assert.match(help.stdout, /Examples?( \([^)]*\))?:\n {2}cairn contract /, `${sub} shows an example`);
    }
  });

  test('bad input: one line on stderr, exit code 1', async () => {
    const bad = join(tmpdir(), `cairn-bad-artifact-${process.pid}.json`);
    writeFileSync(bad, JSON.stringify({ name: 'X', functions: [{ name: 'f' }] }));
    const notJson = join(tmpdir(), `cairn-not-json-${process.pid}.json`);
    writeFileSync(notJson, '{');
    const cases: [string[], RegExp][] = [
      [
        ['contract', 'deploy', '--artifact', '/nonexistent.json'],
        /cannot read artifact \/nonexistent\.json: ENOENT/,
      ],
      [['contract', 'deploy', '--artifact', notJson], /is not JSON/],
      [['contract', 'deploy', '--artifact', bad], /functions\[0\]\.is_unconstrained/],
      [['contract', 'call', 'nothex', 'f', '--artifact', bad], /not a field element: nothex/],
      [
        ['contract', 'call', '0x1', 'f', '--account', 'twelve', '--artifact', bad],
        /expected a dev account, N or account:N, N a dev account of the node \(0\.\.9 with the default --dev-accounts 10\); got twelve/,
      ],
      [
        ['contract', 'call', '0x1', 'f', 'account:x', '--artifact', bad],
        /expected a dev account, N or account:N.*; got account:x/,
      ],
      [['contract', 'selector', 'no_parens'], /give a full signature, or --artifact/],
      [['contract', 'logs', '0x1234'], /cannot reach the node at http:\/\/127\.0\.0\.1:1/],
    ];
    for (const [args, message] of cases) {
      const r = await runCairn(args, CLOSED);
      assert.equal(r.code === 0, false, `${args.join(' ')} should fail`);
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    }
    const selector = await runCairn(['contract', 'selector', 'pub_set_value(Field)']);
    assert.equal(selector.stdout.trim(), '0xeb1e3342 pub_set_value(Field)');
  });
});
