import { describe, expect, it } from 'vitest';
import { sameSitePath } from './site';
import { withWorkspace } from './workspace';

describe('withWorkspace', () => {
  it('adds the team to an in-app path, keeping its query and fragment', () => {
    expect(withWorkspace('/formats', 't1')).toBe('/formats?team=t1');
    expect(withWorkspace('/settings?tab=team#invite', 't1')).toBe('/settings?tab=team&team=t1#invite');
  });

  it('leaves alone the personal workspace, a path naming its own team, the API and other sites', () => {
    expect(withWorkspace('/formats', null)).toBe('/formats');
    expect(withWorkspace('/?team=t2', 't1')).toBe('/?team=t2');
    expect(withWorkspace('/api/documents/d1/download', 't1')).toBe('/api/documents/d1/download');
    expect(withWorkspace('//evil.example.com/x', 't1')).toBe('//evil.example.com/x');
    expect(withWorkspace('https://example.com/', 't1')).toBe('https://example.com/');
  });
});

describe('sameSitePath', () => {
  it('takes a path on this site and nothing that leaves it', () => {
    expect(sameSitePath('/invite/abc')).toBe('/invite/abc');
    for (const away of ['//evil.example.com', '/\\evil.example.com', 'https://evil.example.com', 'javascript:alert(1)', '/\nx', '', null]) {
      expect(sameSitePath(away)).toBeNull();
    }
  });
});
