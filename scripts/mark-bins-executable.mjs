// tsc writes dist/ without the executable bit. npm sets it on a package's bins when it links them,
// but `npx cairn` reuses its cached link of this repository: after a fresh build the bin it points
// at would be a plain file ("cairn: Permission denied"). The build therefore marks the bins itself.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const file of Object.values(bin)) chmodSync(join(root, file), 0o755);
