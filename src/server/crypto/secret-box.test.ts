import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

describe('secret box', () => {
  const box = createSecretBox(randomBytes(32));

  it('round-trips, and the same secret seals differently each time', () => {
    const a = box.seal('smtp-pässword');
    expect(a).not.toContain('smtp');
    expect(box.open(a)).toBe('smtp-pässword');
    expect(box.seal('smtp-pässword')).not.toBe(a);
  });

  it('refuses tampered ciphertext and the wrong key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('SECRET').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
