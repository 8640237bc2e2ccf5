/**
 * `npm run lock:platforms`: completes package-lock.json with the platform-specific optional
 * packages (native bindings for other systems) that `npm install` left out.
 *
 * Why: the registry this project installs from here does not serve every platform build of
 * every version (e.g. `@tailwindcss/oxide-darwin-arm64@4.3.5`), so `npm install` skips them
 * and writes a lock file that `npm ci` then rejects ("Missing: ... from lock file"). An entry
 * naming the package's system (`os`, `cpu`, `libc`, from its name) is all `npm ci` needs: it
 * skips packages of other systems without fetching them. Run after every `npm install`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface LockPackage {
  version?: string;
  optional?: boolean;
  dev?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}
interface Lock {
  packages: Record<string, LockPackage>;
}

const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'wasm32', 'riscv64', 'ppc64', 's390x', 'loong64'];
const OSES = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'netbsd',
  'sunos',
  'win32',
  'aix',
];

/** The system a platform package is for, read from its name; null when the name says none. */
export function platformOf(name: string): Pick<LockPackage, 'os' | 'cpu' | 'libc'> | null {
  const parts = (name.split('/').pop() ?? '').split('-');
  const os = parts.find((p) => OSES.includes(p));
  const cpu = parts.find((p) => CPUS.includes(p));
  if (cpu === 'wasm32') return { cpu: ['wasm32'] };
  if (!os || !cpu) return null;
  const libc = parts.includes('musl')
    ? ['musl']
    : os === 'linux' && parts.some((p) => p.startsWith('gnu'))
      ? ['glibc']
      : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

/** The `node_modules` folder holding the package at `location` ('' for the root package). */
function folderOf(location: string): string {
  if (location === '') return 'node_modules';
  const index = location.lastIndexOf('node_modules/');
  return location.slice(0, index + 'node_modules'.length);
}

/** Whether npm resolves `name@version` from `folder`, looking there and then up the tree. */
function resolves(lock: Lock, folder: string, name: string, version: string): boolean {
  let dir = folder;
  for (;;) {
    const found = lock.packages[`${dir}/${name}`];
    if (found) return found.version === version;
    const index = dir.lastIndexOf('/node_modules');
    if (index === -1) return false;
    dir = dir.slice(0, index);
    dir = dir.slice(0, dir.lastIndexOf('node_modules') + 'node_modules'.length);
  }
}

/**
 * Adds, beside each package with platform-specific optional dependencies, the entries of
 * those the lock lacks; returns what it added (`name@version`).
 */
export function completeLock(lock: Lock): string[] {
  const added: string[] = [];
  for (const [location, pkg] of Object.entries(lock.packages)) {
    const folder = location === '' ? 'node_modules' : folderOf(location);
    for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
      const platform = platformOf(name);
      if (!platform || resolves(lock, folder, name, version)) continue;
      lock.packages[`${folder}/${name}`] = {
        version,
        ...platform,
        optional: true,
        ...(pkg.dev ? { dev: true } : {}),
      };
      added.push(`${name}@${version}`);
    }
  }
  return added;
}

if (import.meta.main) {
  const file = process.argv[2] ?? 'package-lock.json';
  const lock = JSON.parse(readFileSync(file, 'utf8')) as Lock;
  const added = completeLock(lock);
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) =>
      a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
    ),
  );
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`[lock] ${added.length} platform packages added to ${file}`);
}
