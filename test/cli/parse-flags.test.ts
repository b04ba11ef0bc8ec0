import { describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';

describe('--help on a command', () => {
  it('lists the command\'s flags instead of a raw parser error', async () => {
    const r = await runScout(['keys', 'list', '--help'], { SCOUT_DATA_DIR: '/nonexistent-never-created' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--name <value> --json');
    expect(r.stderr).not.toContain('Unknown option');
  });

  it('scout --help prints the commands on stdout', async () => {
    const r = await runScout(['--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('keys create|list|revoke');
  });
});
