// The Dockerfile and compose.yaml, checked without Docker (there is none on the CI machine; see
// docs/docker.md): what they copy exists and is not excluded from the build context, the runtime
// stage holds every file the built node reads outside dist/ and dist/ imports no dev dependency,
// a node starts from a directory laid out as the runtime stage lays out /app, and every setting
// they name is a real setting of `cairn start` that the node's loader accepts without a warning.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { DEFAULT_CACHE_DIR, ensureArtifacts, REPO_ROOT } from '../../src/artifacts/npm-artifacts.js';
import { loadConfig } from '../../src/config/load.js';
import { envOf, flagOf, SETTINGS } from '../../src/config/settings.js';
import { result } from '../helpers/rpc.js';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  bin: Record<string, string>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

interface Instruction {
  stage: string;
  op: string;
  args: string;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), with their stage. */
function dockerfile(text: string): Instruction[] {
  const lines = text.split('\n').filter((l) => !/^\s*#/.test(l));
  const joined = lines.join('\n').replace(/\\\n/g, ' ');
  const out: Instruction[] = [];
  let stage = '';
  let count = 0;
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, op, args] = m as unknown as [string, string, string];
    if (op === 'FROM') stage = /\sAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${count}`;
    if (op === 'FROM') count++;
    out.push({ stage, op, args: args.trim() });
  }
  return out;
}

interface Copy {
  stage: string;
  from: string | undefined;
  sources: string[];
  dest: string;
}

function copies(instructions: Instruction[]): Copy[] {
  return instructions
    .filter((i) => i.op === 'COPY')
    .map((i) => {
      const tokens = i.args.split(/\s+/);
      const from = tokens.find((t) => t.startsWith('--from='))?.slice('--from='.length);
      const paths = tokens.filter((t) => !t.startsWith('--'));
      return { stage: i.stage, from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
    });
}

/** Whether `.dockerignore` keeps `path` (relative, posix) out of the build context. */
function ignored(patterns: string[], path: string): boolean {
  return patterns.some((p) => {
    if (p.includes('*')) {
      const re = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`);
      return re.test(path);
    }
    return path === p || path.startsWith(`${p}/`);
  });
}

const dockerignore = read('.dockerignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => l.replace(/^\/|\/$/g, ''));
const instructions = dockerfile(read('Dockerfile'));
const allCopies = copies(instructions);
/** The stages in order (an ARG before the first FROM belongs to none). */
const stages = [...new Set(instructions.filter((i) => i.stage !== '').map((i) => i.stage))];
const runtimeStage = stages.at(-1)!;
const buildStage = stages[0]!;
const workdir = (stage: string) => instructions.find((i) => i.stage === stage && i.op === 'WORKDIR')?.args;
/** The runtime stage's files from the build stage, as repository paths (relative to /app). */
const runtimeFiles = allCopies
  .filter((c) => c.stage === runtimeStage && c.from === buildStage)
  .flatMap((c) => c.sources.map((s) => posix.relative(workdir(buildStage)!, s)));

/** `compose.yaml`, read line by line: each service's environment, entrypoint, ports and volumes. */
interface Service {
  env: Record<string, string>;
  entrypoint: string[];
  ports: string[];
  volumes: string[];
}

function composeServices(text: string): Record<string, Service> {
  const services: Record<string, Service> = {};
  let section = '';
  let current: Service | undefined;
  let list: keyof Service | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '');
    if (/^\S/.test(line)) {
      section = line.replace(/:.*$/, '');
      current = undefined;
      continue;
    }
    if (section !== 'services') continue;
    const service = /^ {2}([a-z][\w-]*):\s*$/.exec(line);
    if (service) {
      current = { env: {}, entrypoint: [], ports: [], volumes: [] };
      services[service[1]!] = current;
      list = undefined;
      continue;
    }
    if (current === undefined) continue;
    const key = /^ {4}([a-z_]+):\s*(.*)$/.exec(line);
    if (key) {
      list =
        key[1] === 'environment' ? 'env' : key[1] === 'ports' || key[1] === 'volumes' ? key[1] : undefined;
      if (key[1] === 'entrypoint') current.entrypoint = JSON.parse(key[2]!) as string[];
      continue;
    }
    const env = /^ {6}([A-Z][A-Z0-9_]*):\s*(.*)$/.exec(line);
    if (env && list === 'env') current.env[env[1]!] = env[2]!.replace(/^"(.*)"$/, '$1');
    const item = /^ {6}- "?([^"]+)"?$/.exec(line);
    if (item && (list === 'ports' || list === 'volumes')) current[list].push(item[1]!);
  }
  return services;
}

const services = composeServices(read('compose.yaml'));
const imageEnv = Object.fromEntries(
  instructions
    .filter((i) => i.stage === runtimeStage && i.op === 'ENV')
    .flatMap((i) => [...i.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
);
const settingByEnv = new Map(Object.keys(SETTINGS).map((k) => [envOf(k), k]));
const settingByFlag = new Map(Object.keys(SETTINGS).map((k) => [flagOf(k), k]));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('Dockerfile', () => {
  test('two stages: a build stage and a runtime stage on a glibc (Debian) Node.js 20 image', () => {
    assert.equal(stages.length, 2);
    for (const from of instructions.filter((i) => i.op === 'FROM'))
      assert.match(from.args, /^node:\$\{NODE_VERSION\}-bookworm-slim/);
    assert.match(read('Dockerfile'), /^ARG NODE_VERSION=20$/m);
    const apt = instructions.find((i) => i.stage === buildStage && /apt-get install/.test(i.args));
    for (const tool of ['g++', 'make', 'python3']) assert.ok(apt?.args.split(/\s+/).includes(tool), tool);
  });

  test('every file copied from the build context exists and is not excluded by .dockerignore', () => {
    const sources = allCopies.filter((c) => c.from === undefined).flatMap((c) => c.sources);
    assert.ok(sources.length > 0);
    for (const source of sources) {
      assert.ok(existsSync(join(root, source)), `${source} exists`);
      assert.ok(!ignored(dockerignore, source), `${source} is not in .dockerignore`);
    }
  });

  test('the build stage gets what `npm ci` runs: its scripts, the native sources, the tsconfigs', () => {
    const sources = allCopies
      .filter((c) => c.stage === buildStage && c.from === undefined)
      .flatMap((c) => c.sources);
    const covered = (path: string) => sources.some((s) => path === s || path.startsWith(`${s}/`));
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.build.json',
      ...(JSON.parse(read('tsconfig.build.json')) as { extends: string }).extends
        .replace(/^\.\//, '')
        .split(' '),
      'binding.gyp',
      ...[...read('binding.gyp').matchAll(/"(native\/[^"]+)"/g)].map((m) => m[1]!),
      ...Object.values(pkg.scripts).flatMap((s) =>
        [...s.matchAll(/\bnode (scripts\/\S+)/g)].map((m) => m[1]!),
      ),
      'src/l1/contracts',
      'src/cli/main.ts',
    ];
    for (const path of needed) {
      assert.ok(existsSync(join(root, path)), `${path} exists`);
      assert.ok(covered(path), `${path} is copied into the build stage`);
    }
  });

  test('the runtime stage holds every file the node reads outside dist/', () => {
    const covered = (path: string) => runtimeFiles.some((f) => path === f || path.startsWith(`${f}/`));
    // Paths the sources reach outside src/ (imports, new URL(…, import.meta.url)) are read by dist/
    // at the same place relative to the root.
    const outside = new Set<string>();
    for (const file of walk(join(root, 'src')).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/['"]((?:\.\.\/)+[^'"\s]+)['"]/g)) {
        const path = relative(root, resolve(dirname(file), m[1]!))
          .split('\\')
          .join('/');
        if (!path.startsWith('src/')) outside.add(path);
      }
    }
    assert.ok(
      outside.has('package.json') && outside.has('build/Release/poseidon2.node'),
      [...outside].join(),
    );
    outside.add(relative(REPO_ROOT, DEFAULT_CACHE_DIR).split('\\').join('/'));
    outside.add(pkg.bin.cairn!);
    outside.add('node_modules');
    for (const path of outside) assert.ok(covered(path), `${path} is copied into the runtime stage`);
  });

  test('it runs `cairn start` from /app as an unprivileged user, with /data a volume', () => {
    const runtime = (op: string) => instructions.filter((i) => i.stage === runtimeStage && i.op === op);
    assert.equal(workdir(runtimeStage), '/app');
    assert.deepEqual(JSON.parse(runtime('ENTRYPOINT')[0]!.args), ['node', `/app/${pkg.bin.cairn}`]);
    const cmd = JSON.parse(runtime('CMD')[0]!.args) as string[];
    assert.equal(cmd[0], 'start');
    for (const flag of cmd.filter((a) => a.startsWith('--')))
      assert.ok(settingByFlag.has(flag.replace(/=.*$/, '')) || flag === '--config', `${flag} is a setting`);
    const user = runtime('USER')[0]?.args;
    assert.ok(user !== undefined && user !== 'root' && user !== '0', `USER ${user}`);
    assert.match(runtime('VOLUME')[0]!.args, /"\/data"/);
    assert.equal(imageEnv.CAIRN_DATA_DIR, '/data');
  });

  test('its CAIRN_* variables are settings, and it exposes the default ports', () => {
    for (const name of Object.keys(imageEnv).filter((n) => n.startsWith('CAIRN_')))
      assert.ok(settingByEnv.has(name), `${name} is a setting`);
    const exposed = instructions
      .filter((i) => i.op === 'EXPOSE')
      .flatMap((i) => i.args.split(/\s+/))
      .map(Number);
    assert.deepEqual(exposed, [SETTINGS.port.default, SETTINGS.adminPort.default, SETTINGS.p2pPort.default]);
    // The health check asks the public port's /status.
    assert.match(
      instructions.find((i) => i.op === 'HEALTHCHECK')!.args,
      new RegExp(`CAIRN_PORT \\|\\| ${SETTINGS.port.default}\\) \\+ '/status'`),
    );
  });

  test('dist/ and the scripts it ships import no dev dependency (the image prunes them)', () => {
    assert.ok(existsSync(join(root, 'dist', 'cli', 'main.js')), 'dist/ is built (npm test builds it)');
    const files = [
      ...walk(join(root, 'dist')).filter((f) => f.endsWith('.js')),
      ...runtimeFiles.filter((f) => f.startsWith('scripts/')).map((f) => join(root, f)),
    ];
    const builtins = new Set(builtinModules);
    const wrong = new Set<string>();
    const seen = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const specifiers = [
        ...text.matchAll(/^\s*(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/gm),
        ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ];
      for (const m of specifiers) {
        const spec = m[1]!;
        if (spec.startsWith('.') || spec.startsWith('/')) continue;
        if (spec.startsWith('node:') || builtins.has(spec)) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        seen.add(name);
        if (!(name in pkg.dependencies)) wrong.add(`${relative(root, file)}: ${name}`);
      }
    }
    for (const known of ['commander', 'fastify', 'viem', 'lmdb'])
      assert.ok(seen.has(known), `finds ${known}`);
    assert.deepEqual([...wrong], []);
  });
});

describe('.dockerignore', () => {
  test('keeps local builds and caches out of the context, so the image builds them itself', () => {
    for (const path of ['node_modules', 'dist', 'build', '.cache', 'src/l1/generated', '.git', '.env'])
      assert.ok(ignored(dockerignore, path), path);
  });
});

describe('a node started from the runtime stage’s files', () => {
  const app = mkdtempSync(join(tmpdir(), 'cairn-image-app-'));
  after(() => rmSync(app, { recursive: true, force: true }));

  test('starts, with the native hasher and the cached artifacts and no registry, and stops cleanly', {
    timeout: 120_000,
  }, async () => {
    // The artifacts are fetched into the repository's cache as the image's build stage fetches them.
    await ensureArtifacts({ log: () => {} });
    for (const file of runtimeFiles) {
      const target = join(app, file);
      mkdirSync(dirname(target), { recursive: true });
      // node_modules is linked: packages resolve from their real place, as they would in /app.
      if (file === 'node_modules') symlinkSync(join(root, file), target, 'dir');
      else cpSync(join(root, file), target, { recursive: true });
    }
    const readyFile = join(app, 'ready.json');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...imageEnv,
      CAIRN_DATA_DIR: join(app, 'data'),
      // Hashing throws if the addon is not where the image puts it.
      CAIRN_POSEIDON2: 'native',
      // Any attempt to fetch the artifacts again would fail.
      npm_config_registry: 'http://127.0.0.1:9/',
    };
    delete env.CAIRN_POSEIDON2_ADDON;
    const child = spawn(
      process.execPath,
      [join(app, pkg.bin.cairn!), 'start', '--port', '0', '--admin-port', '0', '--ready-file', readyFile],
      { env, cwd: app },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 90_000;
      while (!existsSync(readyFile)) {
        assert.ok(child.exitCode === null && Date.now() < deadline, `the node did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const urls = JSON.parse(readFileSync(readyFile, 'utf8')) as { public: string };
      const info = (await result(urls.public, 'svc_getNodeInfo')) as { nodeVersion: string };
      assert.equal(info.nodeVersion, (JSON.parse(read('package.json')) as { version: string }).version);
      assert.ok(existsSync(join(app, 'data', 'l1', 'anvil.url')), 'the embedded L1 writes its URL');
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, output);
    assert.doesNotMatch(output, /POSEIDON2_FALLBACK|fetching|npm pack/i);
  });
});

describe('compose.yaml', () => {
  test('two services, node and follower, from the image the Dockerfile builds', () => {
    assert.deepEqual(Object.keys(services).sort(), ['follower', 'node']);
  });

  test('every CAIRN_* variable is a setting, and each service’s settings load without a warning', () => {
    for (const [name, service] of Object.entries(services)) {
      const env: Record<string, string> = { ...imageEnv };
      for (const [key, value] of Object.entries(service.env)) {
        if (!key.startsWith('CAIRN_')) continue;
        assert.ok(settingByEnv.has(key), `${name}: ${key} is a setting`);
        // ${VAR:?message}: compose refuses to start without VAR; test with a value of the right form.
        env[key] = /^\$\{[A-Z_]+:\?/.test(value) ? 'k'.repeat(32) : value;
      }
      const { warnings } = loadConfig({ env });
      assert.deepEqual(warnings, [], name);
    }
  });

  test('the admin port leaves loopback only with an API key the environment must provide', () => {
    const node = services.node!;
    assert.equal(node.env.CAIRN_ADMIN_HOST, '0.0.0.0');
    assert.match(node.env.CAIRN_ADMIN_API_KEY!, /^\$\{CAIRN_ADMIN_API_KEY:\?/);
    assert.ok(node.ports.includes(`127.0.0.1:${SETTINGS.adminPort.default}:${SETTINGS.adminPort.default}`));
    assert.equal(
      services.follower!.env.CAIRN_ADMIN_HOST,
      undefined,
      'the follower’s admin port stays on loopback',
    );
  });

  test('the follower runs scripts/follow.mjs from the image, with variables it reads, on ports of its own', () => {
    const follower = services.follower!;
    assert.deepEqual(follower.entrypoint, [
      'node',
      `/app/${runtimeFiles.find((f) => f === 'scripts/follow.mjs')}`,
    ]);
    const script = read('scripts/follow.mjs');
    for (const key of Object.keys(follower.env).filter((k) => !k.startsWith('CAIRN_')))
      assert.ok(script.includes(`process.env.${key}`), `scripts/follow.mjs reads ${key}`);
    // It shares node's network: its ports must differ from node's, and node publishes its public one.
    const nodePort = Number(services.node!.env.CAIRN_PORT ?? SETTINGS.port.default);
    const port = Number(follower.env.CAIRN_PORT);
    assert.notEqual(port, nodePort);
    assert.notEqual(Number(follower.env.CAIRN_ADMIN_PORT), SETTINGS.adminPort.default);
    assert.notEqual(Number(follower.env.CAIRN_P2P_PORT), SETTINGS.p2pPort.default);
    assert.ok(services.node!.ports.includes(`${port}:${port}`));
    assert.equal(follower.env.FOLLOW_NODE_URL, `http://127.0.0.1:${nodePort}`);
  });

  test("the follower reads node's L1 URL from the file node writes in its data volume", () => {
    const nodeVolume = services.node!.volumes.find((v) => v.endsWith(`:${imageEnv.CAIRN_DATA_DIR}`))!;
    const name = nodeVolume.split(':')[0]!;
    const mount = services.follower!.volumes.find((v) => v.startsWith(`${name}:`))!;
    assert.match(mount, /:ro$/, 'read-only');
    assert.equal(services.follower!.env.FOLLOW_L1_URL_FILE, `${mount.split(':')[1]}/l1/anvil.url`);
    // Where the node writes it: <dataDir>/l1/anvil.url.
    assert.match(read('src/node/bootstrap.ts'), /join\(dataDir\.path, 'l1'\)/);
    assert.match(read('src/l1/connect.ts'), /join\(options\.dir, 'anvil\.url'\)/);
  });
});
