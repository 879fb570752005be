import { describe, expect, it } from 'vitest';
import { toast } from './use-toast';

describe('toast follow-ups', () => {
  it('raises the follow-up when nothing came after the first toast', () => {
    const success = toast({ title: 'Success' });
    const ready = success.followUp({ title: 'Form Ready' });
    expect(ready).not.toBeNull();
    expect(ready?.id).not.toBe(success.id);
  });

  it('skips the follow-up when a newer toast was raised meanwhile, so it cannot replace it', () => {
    const success = toast({ title: 'Success' });
    toast({ title: 'Content Cleared' });
    expect(success.followUp({ title: 'Form Ready' })).toBeNull();
  });

  it('a dismissed toast can still be followed up when nothing newer came', () => {
    const success = toast({ title: 'Success' });
    success.dismiss();
    expect(success.followUp({ title: 'Form Ready' })).not.toBeNull();
  });
});
