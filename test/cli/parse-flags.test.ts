import { describe, expect, it } from 'vitest';
import { runScout } from '../helpers/cli.ts';

describe('--help on a command', () => {
  it("prints that command's usage on stdout and exits 0, not the group's flags as an error", async () => {
    const r = await runScout(['keys', 'list', '--help'], { SCOUT_DATA_DIR: '/nonexistent-never-created' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: scout keys list \[--json\]/);
    expect(r.stdout).not.toContain('--name');
    expect(r.stdout).not.toContain('Unknown option');
  });

  it('scout --help prints the commands on stdout', async () => {
    const r = await runScout(['--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('keys create|list|revoke');
  });
});
