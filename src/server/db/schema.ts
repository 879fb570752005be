// The tables live by domain under schema/; this file is the one import the rest of the server uses.
export * from './schema/users-and-auth.ts';
export * from './schema/workspaces.ts';
export * from './schema/formats-and-documents.ts';
export * from './schema/public-api.ts';
export * from './schema/delivery.ts';
export * from './schema/billing.ts';
export * from './schema/system-and-audit.ts';
export * from './schema/signing.ts';
