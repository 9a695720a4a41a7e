import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatLocation,
  joinLocation,
  parseLocation,
  SnapshotLocationError,
  splitKey,
} from '../../src/snapshots/location.js';

describe('parseLocation', () => {
  test('file URLs with absolute paths', () => {
    assert.deepEqual(parseLocation('file:///var/snapshots'), { kind: 'file', path: '/var/snapshots' });
    assert.deepEqual(parseLocation('file:///var/snapshots/'), { kind: 'file', path: '/var/snapshots' });
    assert.deepEqual(parseLocation('file:///var/my%20snaps'), { kind: 'file', path: '/var/my snaps' });
    assert.deepEqual(parseLocation('file:///'), { kind: 'file', path: '/' });
  });

  test('s3 URLs with bucket, prefix and parameters', () => {
    assert.deepEqual(parseLocation('s3://my-bucket'), { kind: 's3', bucket: 'my-bucket', prefix: '' });
    assert.deepEqual(parseLocation('s3://my-bucket/'), { kind: 's3', bucket: 'my-bucket', prefix: '' });
    assert.deepEqual(parseLocation('s3://my-bucket/a/b/'), {
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'a/b',
    });
    assert.deepEqual(
      parseLocation(
        's3://bkt/snaps?endpoint=http://127.0.0.1:9000&publicBaseUrl=https://cdn.example.com/bkt/',
      ),
      {
        kind: 's3',
        bucket: 'bkt',
        prefix: 'snaps',
        endpoint: 'http://127.0.0.1:9000',
        publicBaseUrl: 'https://cdn.example.com/bkt',
      },
    );
  });

  test('http(s) URLs', () => {
    assert.deepEqual(parseLocation('https://example.com/snaps/'), {
      kind: 'http',
      baseUrl: 'https://example.com/snaps',
    });
    assert.deepEqual(parseLocation('http://127.0.0.1:8080'), {
      kind: 'http',
      baseUrl: 'http://127.0.0.1:8080/',
    });
  });

  const bad: [string, RegExp][] = [
    ['file://relative/path', /file:\/\/\//],
    ['file:relative', /./],
    ['/var/snapshots', /not a URL/],
    ['snapshots', /not a URL/],
    ['', /not a URL/],
    ['ftp://example.com/x', /unsupported scheme 'ftp'/],
    ['gs://bucket/x', /unsupported scheme 'gs'/],
    ['s3:///prefix', /bucket name is missing/],
    ['s3://bucket?endpiont=http://x', /unknown parameter 'endpiont'/],
    ['s3://bucket?endpoint=ftp://x', /endpoint must be an http\(s\) URL/],
    ['s3://bucket?endpoint=nonsense', /not a URL/],
    ['s3://key:secret@bucket/x', /credentials/],
    ['s3://bucket:9000/x', /port/],
    ['s3://bucket/a/../b', /not allowed/],
    ['https://user:pw@example.com/', /credentials/],
  ];
  for (const [text, message] of bad) {
    test(`refuses '${text}'`, () => {
      assert.throws(
        () => parseLocation(text),
        (err: any) => {
          assert.ok(err instanceof SnapshotLocationError);
          assert.ok(err instanceof Error);
          assert.match(err.message, message);
          // Every refusal tells the user what would have been accepted.
          assert.match(err.message, /file:\/\/\/absolute\/path, s3:\/\/bucket.*http\(s\)/);
          return true;
        },
      );
    });
  }
});

describe('joinLocation / formatLocation', () => {
  test('file', () => {
    assert.equal(
      joinLocation('file:///var/snaps/', 'cairn-1', 'index.json'),
      'file:///var/snaps/cairn-1/index.json',
    );
    assert.equal(joinLocation('file:///var/snaps', 'a b/c.gz'), 'file:///var/snaps/a%20b/c.gz');
    assert.equal(formatLocation(parseLocation('file:///var/snaps/')), 'file:///var/snaps');
  });

  test('s3 keeps the endpoint but not publicBaseUrl in object URLs', () => {
    const loc = parseLocation(
      's3://bkt/pre/fix?endpoint=http://127.0.0.1:9000&publicBaseUrl=https://cdn.example.com',
    );
    const url = joinLocation(loc, 'folder', 'index.json');
    assert.equal(url, 's3://bkt/pre/fix/folder/index.json?endpoint=http%3A%2F%2F127.0.0.1%3A9000');
    assert.deepEqual(parseLocation(url), {
      kind: 's3',
      bucket: 'bkt',
      prefix: 'pre/fix/folder/index.json',
      endpoint: 'http://127.0.0.1:9000',
    });
    assert.equal(joinLocation('s3://bkt', 'x.gz'), 's3://bkt/x.gz');
    // The formatted base round-trips with all of its parameters.
    assert.deepEqual(parseLocation(formatLocation(loc)), loc);
  });

  test('http keeps a query string after the path', () => {
    assert.equal(
      joinLocation('https://example.com/snaps/', 'f', 'index.json'),
      'https://example.com/snaps/f/index.json',
    );
    assert.equal(joinLocation('https://example.com', 'index.json'), 'https://example.com/index.json');
    assert.equal(joinLocation('https://example.com/s?token=1', 'a.gz'), 'https://example.com/s/a.gz?token=1');
  });

  test('keys cannot escape the location', () => {
    assert.deepEqual(splitKey('a//b/'), ['a', 'b']);
    assert.throws(() => joinLocation('file:///var/snaps', '../etc/passwd'), SnapshotLocationError);
    assert.throws(() => joinLocation('file:///var/snaps', 'a/./b'), SnapshotLocationError);
    assert.throws(() => splitKey('a\\..\\b'), SnapshotLocationError);
  });
});
