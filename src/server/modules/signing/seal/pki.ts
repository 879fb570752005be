import { webcrypto } from 'node:crypto';
import * as pkijs from 'pkijs';

// pkijs finds its crypto through a global engine; Node's WebCrypto is the one it needs, set once here.
pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'] }));

export { pkijs };
export type CryptoKey = webcrypto.CryptoKey;
