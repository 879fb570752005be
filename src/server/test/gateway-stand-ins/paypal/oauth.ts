import { basicAuth, standInId, type TRoute } from '../stand-in-server.ts';
import type { TPayPalState } from './state.ts';

/** OAuth client credentials: the bearer token every other call carries. */
export function oauthRoutes(state: TPayPalState): TRoute[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/oauth2\/token$/,
      handle: (request) => {
        const auth = basicAuth(request.headers);
        if (auth?.id !== state.clientId || auth.secret !== state.clientSecret || request.body.grant_type !== 'client_credentials') {
          return { status: 401, json: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
        }
        const token = standInId('A21AA', 24);
        state.tokens.add(token);
        return {
          json: {
            scope: 'https://uri.paypal.com/services/payments/payment',
            access_token: token,
            token_type: 'Bearer',
            app_id: 'APP-STANDIN',
            expires_in: 32_400,
          },
        };
      },
    },
  ];
}
