// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { failRequestsTo } from '../../test/failing-request';
import { renderApp, screen, withServer } from '../../test/render-app';

withServer();

describe('a shared document that cannot be loaded', () => {
  it('says what the server said, not to check the connection', async () => {
    const token = 'a'.repeat(43);
    // Any link the server cannot find is a 404; other failures come only from its database.
    const restore = failRequestsTo(`/api/share/${token}`, 503, 'Sharing is paused for maintenance.');
    try {
      renderApp(`/s/${token}`);
      expect(await screen.findByRole('heading', { name: 'The document could not be loaded' })).toBeTruthy();
      expect(screen.getByText('Sharing is paused for maintenance.')).toBeTruthy();
      expect(screen.queryByText(/Check your connection/)).toBeNull();
    } finally {
      restore();
    }
  });
});
