import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { afterAll, expect, test } from 'vitest';

/**
 * The direction of the API's imports (api/.dependency-cruiser.mjs): its layers, and the modules' edges, one way and
 * through each module's index.ts. Plain files only: no database.
 */
const API = fileURLToPath(new URL('..', import.meta.url));
const CONFIG_FILE = join(API, '.dependency-cruiser.mjs');

interface DependencyRules {
  default: IConfiguration;
  MODULE_EDGES: Record<string, string[]>;
}
const rules = (await import(CONFIG_FILE)) as DependencyRules;
const LONG = 120_000;

/** Each broken rule as `rule: from → to` (a cycle as its files). */
async function violations(baseDir: string): Promise<string[]> {
  const { forbidden, options } = rules.default;
  const { output } = await cruise(['src'], { ...options, baseDir, validate: true, ruleSet: { forbidden } });
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a cruise result');
  return output.summary.violations
    .map((found) => `${found.rule.name}: ${found.cycle ? found.cycle.map((step) => step.name).join(' → ') : `${found.from} → ${found.to}`}`)
    .sort();
}

const temporary: string[] = [];
afterAll(async () => {
  await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
});

test('the API keeps its layers and the modules their edges', { timeout: LONG }, async () => {
  expect(await violations(API)).toEqual([]);
});

test('the module edges name every module and go one way', async () => {
  const folders = (await readdir(join(API, 'src/modules'), { withFileTypes: true })).filter((entry) => entry.isDirectory());
  expect(Object.keys(rules.MODULE_EDGES).sort()).toEqual(folders.map((entry) => entry.name).sort());
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (name: string) => {
    if (path.includes(name)) throw new Error(`module edges go round: ${[...path, name].join(' → ')}`);
    if (done.has(name)) return;
    path.push(name);
    for (const used of rules.MODULE_EDGES[name] ?? []) {
      expect(rules.MODULE_EDGES, `${name} uses ${used}`).toHaveProperty(used);
      visit(used);
    }
    path.pop();
    done.add(name);
  };
  for (const name of Object.keys(rules.MODULE_EDGES)) visit(name);
});

test('a planted back edge, a bypassed index, a lower layer reaching up and a cycle are each reported', { timeout: LONG }, async () => {
  const root = await mkdtemp(join(tmpdir(), 'mixcrate-layers-'));
  temporary.push(root);
  await cp(join(API, 'src'), join(root, 'src'), { recursive: true });
  await mkdir(join(root, 'test/support'), { recursive: true });
  await writeFile(join(root, 'test/support/app.ts'), 'export {};\n');
  const plant = async (file: string, line: string) => {
    const at = join(root, file);
    const text = await readFile(at, 'utf8').catch(() => '');
    await writeFile(at, `${line}\n${text}`);
  };
  await plant('src/modules/users/users.service.ts', "import '../mixes/index.js';");
  await plant('src/modules/library/library.service.ts', "import '../mixes/mix.policy.js';");
  await plant('src/shared/planted.ts', "import '../modules/users/index.js';");
  await plant('src/modules/tracks/tracks.service.ts', "import '../../graphql/context.js';");
  await plant('src/modules/mixes/mixes.service.ts', "import '../../../test/support/app.js';");
  await plant('src/modules/mail/planted-a.ts', "import './planted-b.js';");
  await plant('src/modules/mail/planted-b.ts', "import './planted-a.js';");
  // A cycle through a type-only import is no cycle at run time, and is not reported.
  await plant('src/modules/mail/planted-c.ts', "import './planted-d.js';\nexport interface C {}");
  await plant('src/modules/mail/planted-d.ts', "import type { C } from './planted-c.js';\nexport type D = C;");

  expect(await violations(root)).toEqual([
    'module-direction: src/modules/users/users.service.ts → src/modules/mixes/index.ts',
    'modules-below-skins: src/modules/tracks/tracks.service.ts → src/graphql/context.ts',
    'no-cycle: src/modules/mail/planted-b.ts → src/modules/mail/planted-a.ts',
    'shared-is-the-floor: src/shared/planted.ts → src/modules/users/index.ts',
    'src-not-tests: src/modules/mixes/mixes.service.ts → test/support/app.ts',
    'through-the-index: src/modules/library/library.service.ts → src/modules/mixes/mix.policy.ts',
  ]);
});

test('skins call services and never reach the ORM themselves', async () => {
  const skins: string[] = [];
  const walk = async (dir: string, wanted: RegExp) => {
    for (const entry of await readdir(join(API, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) await walk(path, wanted);
      else if (wanted.test(entry.name)) skins.push(path);
    }
  };
  await walk('src/modules', /\.(resolver|types|loaders)\.ts$/);
  await walk('src/rest', /\.ts$/);
  const offenders: string[] = [];
  for (const file of skins) if (/\.orm\b|\bem\.fork\(/.test(await readFile(join(API, file), 'utf8'))) offenders.push(file);
  expect(skins.length).toBeGreaterThan(20);
  expect(offenders).toEqual([]);
});
